"""A platform team's Python program: a verified Domain and the webhooks that deliver to it.

Shaped by stack configuration, as the TypeScript e2e program is:
- host (required), webhookSecret (secret, required), filesDir (the folder served as https://<host>/);
- secretVia: how the webhook secret is given (config, or "secret"/"plain" from PLANTED_SECRET_KEY);
- domain: false to declare no Domain (the host is registered already);
- providerSpelling: "typed" or "strings" to give the webhooks an explicit Provider, with the stack's
  settings as the schema types them (a number, a dict) or as the schema before typed them (strings);
- webhooks: a JSON list of {"name", "kind"?, "channel"?, "deleteBeforeReplace"?, "host"?, "afterDomain"?,
  "after"?} (default: one named "orders"): a webhook on another host than the Domain's, with afterDomain
  false, is created beside the Domain; "after" names an earlier webhook it waits for.
"""
import json
import os

import pulumi
import service_pulumi as service

config = pulumi.Config()
host = config.require("host")
# secretVia (tests only): "secret" or "plain" take the secret as a program literal would give it.
secret_via = config.get("secretVia") or "config"
secret_key = (
    config.require_secret("webhookSecret")
    if secret_via == "config"
    else pulumi.Output.secret(os.environ["PLANTED_SECRET_KEY"])
    if secret_via == "secret"
    else os.environ["PLANTED_SECRET_KEY"]
)
hooks = json.loads(config.get("webhooks") or '[{"name": "orders"}]')

spelling = config.get("providerSpelling")
provider = None
if spelling:
    overrides = json.loads(service.config.host_overrides)
    provider = service.Provider(
        "explicit",
        token=pulumi.Output.secret(service.config.token),
        base_url=service.config.base_url,
        retry_budget_seconds=30 if spelling == "typed" else "30",
        host_overrides=overrides if spelling == "typed" else json.dumps(overrides),
    )

domain = (
    service.Domain("hooks", domain_name=host, publish_directory=config.require("filesDir"), timeout=30)
    if config.get_bool("domain") is not False
    else None
)

webhooks = {}
for hook in hooks:
    depends_on = [domain] if domain and hook.get("afterDomain", True) else []
    if "after" in hook:
        depends_on.append(webhooks[hook["after"]])
    webhooks[hook["name"]] = service.Webhook(
        hook["name"],
        endpoint=f"https://{hook.get('host', host)}/service/events",
        secret_key=secret_key,
        channel=hook.get("channel", hook["name"]),
        filters=[service.WebhookFilterArgs(key="activity.name", value=hook.get("kind", "authentication"))],
        opts=pulumi.ResourceOptions(
            depends_on=depends_on,
            delete_before_replace=hook.get("deleteBeforeReplace"),
            provider=provider,
        ),
    )

if domain:
    pulumi.export("domainUuid", domain.domain_uuid)
pulumi.export("webhookUuids", {name: w.webhook_uuid for name, w in webhooks.items()})
