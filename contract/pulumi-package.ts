/**
 * The namespace of the package's stack config keys (`service:token`, `service:baseUrl`): the dynamic
 * resources and the provider plugin read the same keys. Here, on the lowest floor, so that the settings
 * table (which names every setting) and the contract's own messages spell keys from one place. Renaming it
 * would orphan every setting every stack has.
 */
export const CONFIG_NAMESPACE = "service";
