/**
 * The runtime contract's version: what the provider text stored in a stack's state asks
 * `@service/pulumi/runtime` for, and which versions of the package serve it. docs/releasing.md keeps the
 * same table for users.
 */

/**
 * The contract that provider text written by this version asks for, and the one this runtime serves: the
 * names and signatures of `@service/pulumi/runtime` that the text calls, and the state it hands them. A
 * change that text already in users' state cannot call takes the next number.
 */
export const CONTRACT = 1;

/**
 * The versions of `@service/pulumi` that serve each contract, by number, as a semver range. When a version
 * stops serving a contract, its upper bound goes here, so that the message names it.
 */
const CONTRACT_VERSIONS: ReadonlyMap<number, string> = new Map([[1, ">=0.1.0"]]);

/**
 * The one sentence a stack gets on every operation when the installed `@service/pulumi` cannot serve the
 * contract its state asks for: missing, not loadable from the project, too old or too new. Undefined for a
 * contract this version does not know (one newer than it): then only the text in state can say it.
 */
export function contractNeededMessage(contract: number): string | undefined {
  const versions = CONTRACT_VERSIONS.get(contract);
  return (
    versions &&
    `The stack's resources need @service/pulumi ${versions} installed in the program's project: ` +
      "keep it installed until they are deleted, and remove it in a later update than the one that deletes them."
  );
}
