/**
 * The types of the settings value `resolve` returns (resolve.ts) and of the stack config it reads. Apart from it, and typed by plain strings,
 * so that the client's public declarations, which take the value, never reach the settings table's zod
 * schemas (a consumer's compiler would then have to read zod's declarations).
 */

/**
 * Settings as text, by setting name (settings/table.ts): a string as given, a number in its decimal
 * spelling, an object in JSON. An empty value counts as unset and is left out.
 */
export type SettingTexts = { readonly [name: string]: string | undefined };

/** Every setting as each place gives it, and what to tell the user about how the stack spelled them. */
export interface Settings {
  /** What a resource's `connection` sets (its token and base URL). */
  readonly connection: SettingTexts;
  /** What the stack's configuration (or the provider plugin's arguments) sets, secrets readable. */
  readonly stack: SettingTexts;
  /** What the SERVICE_* environment variables set. */
  readonly env: SettingTexts;
  /** One warning per setting the stack gave in an old spelling, for the caller to show. */
  readonly warnings: readonly string[];
  /**
   * Pulumi's own home folder (PULUMI_HOME; undefined for its default, `~/.pulumi`), under which a create
   * notes its attempts for the next process. Not a setting of this package: Pulumi's, read with them.
   */
  readonly pulumiHome: string | undefined;
}

/** Anything that answers `get(key)`: the engine's ConfigureRequest config, or a test's map. */
export interface ConfigSource {
  /**
   * The value of a namespaced key such as `service:token`, or undefined when the stack does not set it:
   * text as stack config and the dynamic-provider host give every value, or the number or object a
   * provider resource's typed argument is.
   */
  get(key: string): unknown;
}
