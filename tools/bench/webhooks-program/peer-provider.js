// The peer: a hand-rolled dynamic provider on fetch, as a team writes one for itself. It validates nothing,
// refreshes each webhook with a GET, and neither paces its calls nor retries them. index.js registers
// webhooks with it under the engine; `npm run bench:host` (../host-commands.mts) runs it in the
// dynamic-provider host alone.
module.exports = {
  async diff(_id, olds, news) {
    const replaces = ["endpoint", "channel", "filters", "secretKey"].filter(
      (key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
    );
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: true };
  },
  async create(inputs) {
    const res = await fetch(`${inputs.baseUrl}/v2/webhooks`, {
      method: "POST",
      headers: {
        authorization: `Token ${inputs.token}`,
        "api-version": "2.0",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        endpoint: { type: "url", value: inputs.endpoint },
        secret_key: inputs.secretKey,
        channel: inputs.channel,
        filters: inputs.filters,
      }),
    });
    if (!res.ok) throw new Error(`creating the webhook failed: ${res.status} ${await res.text()}`);
    const hook = await res.json();
    return { id: hook.webhook_uuid, outs: { ...inputs, webhookUuid: hook.webhook_uuid } };
  },
  async read(id, props) {
    const res = await fetch(`${props.baseUrl}/v2/webhooks/${id}`, {
      headers: { authorization: `Token ${props.token}`, "api-version": "2.0" },
    });
    if (res.status === 403 || res.status === 404) return {};
    if (!res.ok) throw new Error(`reading the webhook failed: ${res.status} ${await res.text()}`);
    const hook = await res.json();
    return { id, props: { ...props, channel: hook.channel } };
  },
  async delete(id, props) {
    const res = await fetch(`${props.baseUrl}/v2/webhooks/${id}/deactivate`, {
      method: "POST",
      headers: { authorization: `Token ${props.token}`, "api-version": "2.0" },
    });
    if (!res.ok) throw new Error(`deactivating the webhook failed: ${res.status} ${await res.text()}`);
  },
};
