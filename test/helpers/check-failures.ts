/**
 * Check failures as the engine receives them: no property (the engine would print its value, a secret's
 * included), and a reason that starts with the field it is about.
 */
interface Failure {
  readonly property: string;
  readonly reason: string;
}

/** The field each failure names: the first word of its reason. */
export const failedFields = (failures: readonly Failure[]) => failures.map((f) => f.reason.split(" ")[0]);

/** The failure about `field`, if any. */
export const failureOn = (failures: readonly Failure[], field: string) =>
  failures.find((f) => f.reason.startsWith(`${field} `));
