/** A register fingerprint as a delivery carries it: the smallest item every API version reads. */
export const fingerprintItem = (service_id: string, update_counter: number) => ({
  service_id,
  activity: { name: "fingerprint", mode: "register", form_factor: "microscopic" },
  owner: { organization: { name: "acme" }, user: { username: "acme-alice" } },
  status: { flag: null, result: { id: "registered", display: "Registered", final: true }, retake: null },
  text_fields: { customer_item_id: `order-${service_id}` },
  update_counter,
});
