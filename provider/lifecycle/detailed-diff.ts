/**
 * What a `diff` tells the engine to show: the inputs that changed, each with its kind, as the engine's
 * `DiffResponse.detailedDiff` has it. Without one, `pulumi preview --diff` compares the stored outputs
 * with the new inputs and shows every member that only one side has: a replaced Webhook would show its
 * secret as added and the salted hashes state keeps of the secret and the credentials as deleted, a
 * rotation that is not there. With one, the engine shows only the members listed, the old value from the
 * stored inputs (where secrets are kept encrypted and shown as `[secret]`) or outputs, the new from the
 * new inputs.
 */

/**
 * Property path (a top-level input name) to how it changed: `kind` as `pulumirpc.PropertyDiff.Kind` names
 * it; `inputDiff` when the engine is to show the old value from the stored inputs, not the outputs.
 */
export type DetailedDiff = Readonly<
  Record<
    string,
    {
      readonly kind: "ADD" | "ADD_REPLACE" | "DELETE" | "DELETE_REPLACE" | "UPDATE" | "UPDATE_REPLACE";
      readonly inputDiff: boolean;
    }
  >
>;

const given = (value: unknown) => value !== undefined && value !== null;

/**
 * The detailed diff of the inputs `changed`, those among `replacing` marked as replacing the object:
 * added where only `news` gives the input, deleted where only the previous state `stored` did, else
 * updated. An input that state keeps only as a salted hash (`hashed` names the hash's member, as
 * `secretKey: "secretKeyHash"`) is compared with the outputs, which hold no value for it: the engine shows
 * the new secret as `[secret]`, once, with no old value beside it. `updated` are shown as updated whatever
 * `stored` holds: members `stored` may not hold although the stored inputs do (the outputs of a dynamic
 * resource).
 */
export function detailedDiffOf(
  changed: readonly string[],
  replacing: readonly string[],
  stored: Readonly<Record<string, unknown>>,
  news: Readonly<Record<string, unknown>>,
  options: { readonly hashed?: Readonly<Record<string, string>>; readonly updated?: readonly string[] } = {},
): DetailedDiff {
  const { hashed = {}, updated = [] } = options;
  const entries = changed.map((key): [string, DetailedDiff[string]] => {
    const hash = hashed[key];
    const before = given(stored[key]) || (hash !== undefined && given(stored[hash]));
    const after = given(news[key]);
    const kind = updated.includes(key)
      ? "UPDATE"
      : before && !after
        ? "DELETE"
        : !before && after
          ? "ADD"
          : "UPDATE";
    return [key, { kind: replacing.includes(key) ? `${kind}_REPLACE` : kind, inputDiff: hash === undefined }];
  });
  return Object.fromEntries(entries);
}
