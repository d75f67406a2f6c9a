/**
 * Inputs are compared by meaning, in one place (provider/lifecycle/input-comparison.ts), by every
 * resource's diff. For each resource, an input's meaning is spelt two ways (members in any order, defaults
 * given or left out, filters in another order and form, a base URL with a trailing slash, in capitals, with
 * its default port or left out for the stack's); state is recorded from one spelling as create records it,
 * handed back with its members in a random order as the engine hands it back, and diffed against the
 * other, through the dynamic resource (plain values) and through the provider plugin (secrets wrapped in
 * any place). Equal meaning: no change. A real change of any one input: a change, and a replacement where
 * that input defines the object. Regression: connections were compared as JSON text, so that an unchanged
 * program proposed an update of every resource with a `connection` at every preview.
 */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import * as fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { FORM_FACTORS } from "../../../contract/webhooks/requests";
import { clientFor } from "../../../provider/lifecycle/clients";
import { withConnection } from "../../../provider/lifecycle/connection";
import { credentialsHash } from "../../../provider/lifecycle/credentials-hash";
import {
  canonicalBaseUrl,
  changedInputs,
  connection,
  defaultsTo,
  type Fallbacks,
  filterList,
  hashedSecret,
  language,
  recordedUnlessGiven,
  sameValue,
} from "../../../provider/lifecycle/input-comparison";
import type { ResourceProps } from "../../../provider/lifecycle/methods";
import { hashSecret } from "../../../provider/lifecycle/secret-hash";
import { CustomResource } from "../../../provider/plugin/custom-resource";
import { markSecrets } from "../../../provider/plugin/secrets";
import {
  domainRegistration,
  domainVerification,
  verificationFile,
  webhook,
} from "../../../provider/registry";
import type { DeclaredResource } from "../../../provider/resource-kit/declaration";
import { outputsFor } from "../../../provider/webhook/create";
import { configureProcess, providerSettings } from "../../helpers/runtime";

/** The stack's base URL, which a connection without one falls back on. */
const STACK_BASE_URL = "https://api.example.com";
const FALLBACKS: Fallbacks = { baseUrl: STACK_BASE_URL, acceptLanguage: "en" };
const UUID = "8f14e45f-ceea-467f-a8f0-6b5a4f5e0c11";

beforeEach(() => {
  configureProcess({ "service:token": "stack-token-0123456789", "service:baseUrl": STACK_BASE_URL });
});

// ---- Meanings, and the ways to spell each -------------------------------------------------------------

/** `value` with the members of every object in it in an order drawn from `seed` (arrays keep theirs). */
function reorder(value: unknown, seed: number): unknown {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== "object" || v === null) return v;
    const entries = Object.entries(v).map(([k, inner]) => [k, walk(inner)] as const);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = next() % (i + 1);
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    return Object.fromEntries(entries);
  };
  return walk(value);
}
const order = fc.integer({ min: 1, max: 2 ** 31 - 1 });

const token = fc.stringMatching(/^[a-z0-9]{6,12}$/).map((s) => `token-${s}-0123456789`);
/** Base URLs in canonical form; the first is the stack's. */
const BASE_URLS = [
  STACK_BASE_URL,
  "https://api.example.com/v2",
  "https://api.example.com:8443",
  "https://eu.api.example.com/base/path",
  "http://127.0.0.1:8787",
  "http://localhost:9797/sandbox",
];

/** Another way to write the base URL `url`: scheme and host in capitals, its default port, trailing slashes. */
const spellBaseUrl = (url: string) =>
  fc.record({ upper: fc.boolean(), port: fc.boolean(), slashes: fc.nat(2) }).map((way) => {
    const parsed = new URL(url);
    let origin = `${parsed.protocol}//${parsed.host}`;
    if (way.port && parsed.port === "") origin += parsed.protocol === "https:" ? ":443" : ":80";
    if (way.upper) origin = origin.toUpperCase();
    return `${origin}${parsed.pathname === "/" ? "" : parsed.pathname}${"/".repeat(way.slashes)}`;
  });

/** What a connection means: a token and the base URL it is used with (absent: no connection at all). */
type ConnectionMeaning = { token: string; baseUrl: string } | undefined;
const connectionMeaning: fc.Arbitrary<ConnectionMeaning> = fc.option(
  fc.record({ token, baseUrl: fc.constantFrom(...BASE_URLS) }),
  { nil: undefined },
);
/** A connection as a program may write it: the stack's base URL left out or spelt out, any spelling. */
const spellConnection = (meaning: ConnectionMeaning) =>
  meaning === undefined
    ? fc.constant(undefined)
    : fc
        .tuple(fc.boolean(), spellBaseUrl(meaning.baseUrl))
        .map(([leaveOut, baseUrl]) =>
          leaveOut && meaning.baseUrl === STACK_BASE_URL
            ? { token: meaning.token }
            : { token: meaning.token, baseUrl },
        );

/** The common members' meaning: the connection, and the language (the stack's default is "en"). */
const commonMeaning = fc.record({
  connection: connectionMeaning,
  acceptLanguage: fc.constantFrom("en", "ja"),
});
type CommonMeaning = { connection: ConnectionMeaning; acceptLanguage: string };
const spellCommon = (meaning: CommonMeaning) =>
  fc.record({
    connection: spellConnection(meaning.connection),
    acceptLanguage: fc
      .boolean()
      .map((leaveOut) => (leaveOut && meaning.acceptLanguage === "en" ? undefined : meaning.acceptLanguage)),
  });
/** Changes of meaning of the common members, which every resource updates in place. */
const COMMON_CHANGES = {
  connection: <M extends CommonMeaning>(m: M): M => ({
    ...m,
    connection:
      m.connection === undefined
        ? { token: "token-added-0123456789", baseUrl: STACK_BASE_URL }
        : { ...m.connection, token: `${m.connection.token}-rotated` },
  }),
  connectionBaseUrl: <M extends CommonMeaning>(m: M): M => ({
    ...m,
    connection: {
      token: m.connection?.token ?? "token-added-0123456789",
      baseUrl: m.connection?.baseUrl === BASE_URLS[1] ? BASE_URLS[2]! : BASE_URLS[1]!,
    },
  }),
  acceptLanguage: <M extends CommonMeaning>(m: M): M => ({
    ...m,
    acceptLanguage: m.acceptLanguage === "en" ? "ja" : "en",
  }),
};

/** Leaves out the members that are undefined, as the engine never passes them. */
const defined = (props: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));

// ---- One case per resource -----------------------------------------------------------------------------

interface ResourceCase<M> {
  readonly declared: DeclaredResource;
  readonly meaning: fc.Arbitrary<M>;
  /** One way a program may write inputs that mean `m`. */
  spell(m: M): fc.Arbitrary<ResourceProps>;
  /** The state that create records from the checked inputs. */
  stored(inputs: ResourceProps): ResourceProps;
  /** For each input, a change of its meaning; an input that is one of `replacing` replaces the object. */
  readonly changes: Record<string, (m: M) => M>;
  readonly replacing: readonly string[];
}

type WebhookMeaning = CommonMeaning & {
  endpoint: string;
  secretKey: string;
  channel: string;
  apiVersion: "2.0" | "1.4";
  /** Canonical: keys sorted, values sorted and distinct. */
  filters: { key: string; values: string[] }[];
};

const WEBHOOK: ResourceCase<WebhookMeaning> = {
  declared: webhook,
  meaning: fc
    .record({
      common: commonMeaning,
      path: fc.constantFrom("/events", "/service/events", "/a/b"),
      secretKey: fc.stringMatching(/^[a-z0-9]{24,32}$/),
      channel: fc.constantFrom("default", "orders", "billing"),
      apiVersion: fc.constantFrom("2.0" as const, "1.4" as const),
      kind: fc.constantFrom("authentication", "fingerprint"),
      formFactors: fc.subarray([...FORM_FACTORS]),
    })
    .map((r) => ({
      ...r.common,
      endpoint: `https://hooks.example.com${r.path}`,
      secretKey: r.secretKey,
      channel: r.channel,
      apiVersion: r.apiVersion,
      filters: [
        { key: "activity.name", values: [r.kind] },
        ...(r.formFactors.length > 0 ? [{ key: "activity.form_factor", values: r.formFactors.sort() }] : []),
      ],
    })),
  spell: (m) =>
    fc
      .record({
        common: spellCommon(m),
        channel: fc.boolean(),
        apiVersion: fc.boolean(),
        // Each filter as `value` or `values` (one value), its values in any order; the list in any order.
        forms: fc.array(fc.boolean(), { minLength: m.filters.length, maxLength: m.filters.length }),
        filters: fc.shuffledSubarray(m.filters, { minLength: m.filters.length }),
        reversed: fc.boolean(),
      })
      .map((way) => ({
        ...way.common,
        endpoint: m.endpoint,
        secretKey: m.secretKey,
        channel: way.channel && m.channel === "default" ? undefined : m.channel,
        apiVersion: way.apiVersion && m.apiVersion === "2.0" ? undefined : m.apiVersion,
        filters: way.filters.map((f, i) =>
          f.values.length === 1 && way.forms[i]
            ? { key: f.key, value: f.values[0] }
            : { key: f.key, values: way.reversed ? [...f.values].reverse() : f.values },
        ),
      })),
  stored: (inputs) => {
    const record = {
      webhookUuid: UUID,
      channel: inputs.channel as string,
      endpoint: inputs.endpoint as string,
      // The service answers with the filters in its own order and form.
      filters: [...(inputs.filters as { key: string }[])].reverse(),
      owner: { organization: "acme", username: "acme-alice" },
      createTime: undefined,
    };
    return outputsFor(record, inputs as never, clientFor(inputs, providerSettings()));
  },
  changes: {
    endpoint: (m) => ({ ...m, endpoint: `${m.endpoint}/moved` }),
    channel: (m) => ({ ...m, channel: m.channel === "default" ? "orders" : "default" }),
    apiVersion: (m) => ({ ...m, apiVersion: m.apiVersion === "2.0" ? "1.4" : "2.0" }),
    filters: (m) => ({
      ...m,
      filters: m.filters.map((f) =>
        f.key === "activity.name"
          ? { ...f, values: [f.values[0] === "fingerprint" ? "authentication" : "fingerprint"] }
          : f,
      ),
    }),
    secretKey: (m) => ({ ...m, secretKey: `${m.secretKey}x` }),
    ...COMMON_CHANGES,
  },
  replacing: ["endpoint", "channel", "apiVersion", "filters", "secretKey"],
};

type RegistrationMeaning = CommonMeaning & { domainName: string };
const REGISTRATION: ResourceCase<RegistrationMeaning> = {
  declared: domainRegistration,
  meaning: fc
    .record({ common: commonMeaning, domainName: fc.constantFrom("hooks.example.com", "a.example.org") })
    .map((r) => ({ ...r.common, domainName: r.domainName })),
  spell: (m) => spellCommon(m).map((common) => ({ ...common, domainName: m.domainName })),
  stored: (inputs) =>
    withConnection(
      {
        domainName: inputs.domainName,
        url: `https://${inputs.domainName}/service_url_registration/v-1`,
        verifier: "v-1",
        key: "service_url_registration/v-1",
        registerToken: "register-token-0123456789",
        expiresAt: "2030-01-01T00:00:00Z",
      },
      inputs,
    ),
  changes: { domainName: (m) => ({ ...m, domainName: `x.${m.domainName}` }), ...COMMON_CHANGES },
  replacing: ["domainName"],
};

type VerificationMeaning = CommonMeaning & { domainName: string; verifier: string; timeout: number };
const VERIFICATION: ResourceCase<VerificationMeaning> = {
  declared: domainVerification,
  meaning: fc
    .record({
      common: commonMeaning,
      verifier: fc.constantFrom("v-1", "v-2"),
      timeout: fc.constantFrom(600, 30),
    })
    .map((r) => ({ ...r.common, domainName: "hooks.example.com", verifier: r.verifier, timeout: r.timeout })),
  spell: (m) =>
    fc.record({ common: spellCommon(m), timeout: fc.boolean(), adopt: fc.boolean() }).map((way) => ({
      ...way.common,
      domainName: m.domainName,
      verifier: m.verifier,
      url: `https://${m.domainName}/service_url_registration/${m.verifier}`,
      registerToken: "register-token-0123456789",
      expiresAt: "2030-01-01T00:00:00Z",
      timeout: way.timeout && m.timeout === 600 ? undefined : m.timeout,
      adopt: way.adopt ? false : undefined,
    })),
  stored: (inputs) =>
    withConnection(
      {
        domainUuid: "d-1",
        domainName: inputs.domainName,
        status: "registered",
        adopt: false,
        verifier: inputs.verifier,
        url: inputs.url,
        expiresAt: inputs.expiresAt,
        timeout: inputs.timeout,
        organization: "acme",
        credentialsHash: credentialsHash(clientFor(inputs, providerSettings()).options),
      },
      inputs,
    ),
  changes: {
    domainName: (m) => ({ ...m, domainName: `x.${m.domainName}` }),
    verifier: (m) => ({ ...m, verifier: `${m.verifier}-new` }),
    timeout: (m) => ({ ...m, timeout: m.timeout + 1 }),
    ...COMMON_CHANGES,
  },
  replacing: ["domainName", "verifier"],
};

type FileMeaning = { directory: string; key: string; content: string };
const FILE: ResourceCase<FileMeaning> = {
  declared: verificationFile,
  meaning: fc.record({
    directory: fc.constantFrom("/srv/www", "site"),
    key: fc.constantFrom("service_url_registration/v-1", "a/b"),
    content: fc.stringMatching(/^[a-z0-9]{16,24}$/),
  }),
  spell: (m) => fc.constant({ ...m }),
  stored: (inputs) => ({
    directory: inputs.directory,
    key: inputs.key,
    path: `/abs/${inputs.key}`,
    contentHash: hashSecret(inputs.content as string),
  }),
  changes: {
    directory: (m) => ({ ...m, directory: `${m.directory}/other` }),
    key: (m) => ({ ...m, key: `${m.key}-other` }),
    content: (m) => ({ ...m, content: `${m.content}x` }),
  },
  replacing: ["directory", "key"],
};

// ---- The properties ------------------------------------------------------------------------------------

const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });

/** The plugin's view of `news`: its secret inputs wrapped, `connection` whole or only its token. */
function wrapped(declared: DeclaredResource, news: ResourceProps, tokenOnly: boolean): ResourceProps {
  const out = markSecrets(
    news,
    declared.secrets.inputs.filter((k) => k !== "connection"),
  );
  const given = news.connection as { token: string } | undefined;
  if (given !== undefined)
    out.connection = tokenOnly ? { ...given, token: secret(given.token) } : secret(given);
  return out;
}

interface Front {
  readonly name: string;
  diff(
    declared: DeclaredResource,
    stored: ResourceProps,
    oldInputs: ResourceProps,
    news: ResourceProps,
    tokenOnly: boolean,
  ): Promise<{ changes?: boolean; replaces?: string[] }>;
}
const FRONTS: readonly Front[] = [
  {
    name: "the dynamic resource",
    diff: async (declared, stored, _oldInputs, news) =>
      (await declared.diff(
        providerSettings(),
        UUID,
        { ...stored, __provider: "code" },
        { ...news, __provider: "code" },
      )) as {
        changes: boolean;
        replaces: string[];
      },
  },
  {
    name: "the provider plugin",
    diff: (declared, stored, oldInputs, news, tokenOnly) =>
      new CustomResource(declared, () => undefined).diff(
        providerSettings(),
        UUID,
        markSecrets(stored, declared.secrets.outputs),
        wrapped(declared, news, tokenOnly),
        wrapped(declared, oldInputs, !tokenOnly),
      ),
  },
];

/** Checked inputs, as the engine hands them to diff; a spelling that fails check is a bug of this test. */
async function checked(declared: DeclaredResource, spelt: ResourceProps): Promise<ResourceProps> {
  const result = (await declared.check(providerSettings(), {}, defined(spelt))) as {
    inputs: ResourceProps;
    failures: unknown[];
  };
  expect(result.failures).toEqual([]);
  return result.inputs;
}

const CASES: readonly [string, ResourceCase<any>][] = [
  ["Webhook", WEBHOOK],
  ["DomainRegistration", REGISTRATION],
  ["DomainVerification", VERIFICATION],
  ["VerificationFile", FILE],
];

describe.each(CASES)("the %s diff", (_name, resource) => {
  /** A meaning, two spellings of it, and how to order the stored state and to wrap the plugin's secrets. */
  const scenario = resource.meaning.chain((meaning) =>
    fc.record({
      meaning: fc.constant(meaning),
      first: resource.spell(meaning),
      second: resource.spell(meaning),
      order,
      tokenOnly: fc.boolean(),
      front: fc.constantFrom(...FRONTS),
    }),
  );

  it("shows no change for inputs that mean what state records, however either is spelt", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ first, second, order: seed, tokenOnly, front }) => {
        const oldInputs = await checked(resource.declared, first);
        const stored = reorder(resource.stored(oldInputs), seed) as ResourceProps;
        const news = await checked(resource.declared, second);
        const result = await front.diff(resource.declared, stored, oldInputs, news, tokenOnly);
        expect(result).toMatchObject({ changes: false, replaces: [] });
      }),
      { numRuns: 60 },
    );
  });

  it("shows a change of any one input, and replaces for those that define the object", async () => {
    const changed = scenario.chain((s) =>
      fc
        .constantFrom(...Object.keys(resource.changes))
        .chain((input) =>
          resource.spell(resource.changes[input]!(s.meaning)).map((third) => ({ ...s, input, third })),
        ),
    );
    await fc.assert(
      fc.asyncProperty(changed, async ({ first, third, input, order: seed, tokenOnly, front }) => {
        const oldInputs = await checked(resource.declared, first);
        const stored = reorder(resource.stored(oldInputs), seed) as ResourceProps;
        const news = await checked(resource.declared, third);
        const result = await front.diff(resource.declared, stored, oldInputs, news, tokenOnly);
        const replacing = resource.replacing.includes(input) ? [input] : [];
        expect(result).toMatchObject({ changes: true, replaces: replacing });
      }),
      { numRuns: 60 },
    );
  });
});

describe("the comparisons", () => {
  it("take a base URL in any spelling for the same service, and another service for another", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BASE_URLS).chain((url) => fc.tuple(fc.constant(url), spellBaseUrl(url))),
        fc.constantFrom(...BASE_URLS),
        ([url, spelt], other) => {
          expect(canonicalBaseUrl(spelt)).toBe(url);
          expect(canonicalBaseUrl(spelt) === canonicalBaseUrl(other)).toBe(url === other);
        },
      ),
    );
  });

  it("tell a connection left out from one given, even with the stack's own token", () => {
    const given = { token: "stack-token-0123456789" };
    expect(connection(undefined, { connection: given }, "connection", FALLBACKS)).toBe(false);
    expect(connection(given, {}, "connection", FALLBACKS)).toBe(false);
    expect(connection(undefined, {}, "connection", FALLBACKS)).toBe(true);
  });

  it("take a default left out for the default spelt out, on either side, and nothing else for it", () => {
    const channel = defaultsTo("default");
    expect(channel(undefined, { channel: "default" }, "channel", FALLBACKS)).toBe(true);
    expect(channel("default", {}, "channel", FALLBACKS)).toBe(true);
    expect(channel("orders", {}, "channel", FALLBACKS)).toBe(false);
    expect(channel(undefined, { channel: "orders" }, "channel", FALLBACKS)).toBe(false);
  });

  it("keep the recorded value of an input left out, and compare one given", () => {
    expect(recordedUnlessGiven(undefined, { timeout: 30 }, "timeout", FALLBACKS)).toBe(true);
    expect(recordedUnlessGiven(30, { timeout: 30 }, "timeout", FALLBACKS)).toBe(true);
    expect(recordedUnlessGiven(600, { timeout: 30 }, "timeout", FALLBACKS)).toBe(false);
  });

  it("take the stack's language for a language left out", () => {
    expect(language(undefined, { acceptLanguage: "en" }, "acceptLanguage", FALLBACKS)).toBe(true);
    const ja = { ...FALLBACKS, acceptLanguage: "ja" };
    expect(language(undefined, { acceptLanguage: "en" }, "acceptLanguage", ja)).toBe(false);
    expect(language("ja", {}, "acceptLanguage", ja)).toBe(true);
  });

  it("match a secret against its salted hash, and without one against the secret kept with the inputs", () => {
    const secretKey = hashedSecret("secretKeyHash");
    const stored = { secretKeyHash: hashSecret("s3cret-s3cret-s3cret") };
    expect(secretKey("s3cret-s3cret-s3cret", stored, "secretKey", FALLBACKS)).toBe(true);
    expect(secretKey("another-secret-value", stored, "secretKey", FALLBACKS)).toBe(false);
    expect(secretKey(undefined, stored, "secretKey", FALLBACKS)).toBe(false);
    // Adopted by `pulumi import`: no hash; the previous inputs' secret, else the one given, on trust.
    expect(secretKey("a", { secretKey: "a" }, "secretKey", FALLBACKS)).toBe(true);
    expect(secretKey("b", { secretKey: "a" }, "secretKey", FALLBACKS)).toBe(false);
    expect(secretKey("b", {}, "secretKey", FALLBACKS)).toBe(true);
  });

  it("take a filter list missing on either side as changed", () => {
    const filters = [{ key: "activity.name", value: "authentication" }];
    expect(filterList(undefined, { filters }, "filters", FALLBACKS)).toBe(false);
    expect(filterList(filters, {}, "filters", FALLBACKS)).toBe(false);
  });

  it("leave a base URL that is no URL as written, but for its trailing slashes", () => {
    expect(canonicalBaseUrl("not a url//")).toBe("not a url");
  });

  it("count a value still unknown at preview as changed, whatever its kind", () => {
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const kinds = { connection, channel: defaultsTo("default") };
    const stored = { connection: { token: "t" }, channel: "default" };
    expect(
      changedInputs(kinds, stored, { connection: { token: UNKNOWN }, channel: UNKNOWN }, FALLBACKS),
    ).toEqual(["connection", "channel"]);
  });

  it("compare JSON values as the engine does: members in any order, null as absent, arrays in order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), order, (value, seed) => {
        expect(sameValue(value, reorder(value, seed))).toBe(true);
      }),
    );
    expect(sameValue({ a: 1, b: null }, { a: 1 })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue([1], [1, 2])).toBe(false);
    expect(sameValue(["a"], "a")).toBe(false);
    expect(sameValue({ 0: "a" }, ["a"])).toBe(false);
    expect(sameValue({ a: [1] }, { a: 1 })).toBe(false);
    expect(sameValue({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
  });
});
