/**
 * The provider plugin's package name: the first part of its type tokens (`service:index:Webhook`) and of
 * its schema, and so the namespace of its stack config keys (`service:token`): Pulumi namespaces a
 * provider's configuration by its package name, and the dynamic resources read the same keys. Here, on
 * the lowest floor, so that every floor that names it (resource declarations, the settings table, the
 * contract's messages) reads it from one place. Renaming it would replace every plugin resource in every
 * stack and orphan every setting every stack has.
 */
export const PLUGIN_PACKAGE = "service";
