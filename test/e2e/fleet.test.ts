/**
 * A fleet of organizations under the real engine, each with its own token given as a secret, and every
 * resource with its own `connection` in one of several shapes that mean the same thing (fleet-program/):
 * after `up`, an unchanged program previews with no change and no call, a refresh reads each
 * organization's listings once (not each resource) and rewrites no state, and nothing printed or stored
 * holds a token. Regression: connections were compared as JSON text, and the engine
 * hands stored ones back with their members in another order, so every preview proposed updates (and,
 * through the Domain's steps, replacements), and every refresh rewrote the state.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { type Checkpoint, describeUnderEngine, webhooksIn } from "../helpers/engine";
import { FLEET, fleetSeed, HOOKS_TOKEN } from "../helpers/fixtures";
import { devStack, expectNoSecretIn, expectSecretsEncrypted, useStage } from "../helpers/stage";

const PROGRAM = join(__dirname, "fleet-program");
const TOKENS = FLEET.map((org) => org.token);
/** The tokens the program takes as plain text, every third one: FLEET_TOKEN_<ORGANIZATION>. */
const PLAIN_TOKENS = Object.fromEntries(
  FLEET.filter((_, i) => i % 3 === 2).map((org) => [
    `FLEET_TOKEN_${org.organization.toUpperCase().replace(/-/g, "_")}`,
    org.token,
  ]),
);

/**
 * The resources of a checkpoint as a refresh that found nothing must leave them, `modified` included (the
 * engine moves it only when a refresh read other inputs or outputs, secrets compared in plain text).
 * Secrets are compared by place: each write encrypts them again, under a new nonce. Dependency lists are
 * left out: a refresh without the program drops them.
 */
const kept = (state: Checkpoint): unknown =>
  JSON.parse(
    JSON.stringify(state.deployment.resources ?? [], (key, value) =>
      key === "ciphertext" ? "[encrypted]" : key === "propertyDependencies" ? undefined : value,
    ),
  );

describeUnderEngine("a fleet of organizations with per-resource connections, under the real engine", () => {
  const stages = useStage([HOOKS_TOKEN, ...TOKENS], fleetSeed);

  it("previews an unchanged program with no change, and refreshes it without rewriting state", async () => {
    const stage = stages.current;
    const project = await devStack(
      stage,
      {
        fleet: FLEET.map(({ organization, host }) => ({ organization, host })),
        sandboxUrl: stage.sandbox.url,
        "service:hostOverrides": Object.fromEntries(FLEET.map((org) => [org.host, stage.originUrl])),
      },
      { from: PROGRAM, env: PLAIN_TOKENS },
    );
    // Every third token is plain text to the program, from the environment; the others are secrets.
    for (const [i, org] of FLEET.entries()) {
      if (i % 3 !== 2) await project.config(`token-${org.organization}`, org.token, true);
    }

    await project.run(["up", "--yes"]);
    const state = await project.exported();
    expect(webhooksIn(state)).toHaveLength(2 * FLEET.length);
    for (const org of FLEET) expect(await stage.active(org.token)).toHaveLength(2);
    expectSecretsEncrypted(state);

    // An unchanged program: nothing to do, and no API call to find that out.
    let mark = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark)).toBe(0);

    // Nothing changed on the service: the refresh finds nothing, and every resource is kept as stored. It
    // reads each organization's listings once per provider process, not each resource on its own: one of
    // domains per organization (each Domain lives in one process), one of webhooks per organization in each
    // process (every organization has a Webhook in the dynamic-provider host and one in the plugin). The
    // refresh's preview reads as much again, in processes of its own.
    mark = stage.mark();
    await project.run(["refresh", "--yes", "--expect-no-changes"]);
    const reads = 2;
    expect(stage.callsSince(mark, "/v2/search/domains")).toBe(reads * FLEET.length);
    expect(stage.callsSince(mark, "/v2/search/webhooks")).toBe(reads * 2 * FLEET.length);
    expect(stage.callsSince(mark)).toBe(reads * 3 * FLEET.length);
    const refreshed = await project.exported();
    expect(kept(refreshed)).toEqual(kept(state));
    await project.run(["preview", "--expect-no-changes"]);

    await project.run(["destroy", "--yes"]);
    for (const org of FLEET) expect(await stage.active(org.token)).toEqual([]);
    expectNoSecretIn([JSON.stringify(state), project.checkpointFile("service-fleet-e2e", "dev")], stage, [
      HOOKS_TOKEN,
      ...TOKENS,
    ]);
  });
});
