import { randomBytes, randomUUID } from "node:crypto";
import type { SessionKind } from "../contract/kinds";
import type { Language } from "../contract/languages";
import { MAX_ACTIVE_WEBHOOKS } from "../contract/limits";
import type { ApiVersion } from "../contract/versions";
import type { CanonicalFilter } from "../contract/webhooks/types";
import type { SandboxClock } from "./clock";
import { HttpError, invalid, notFound } from "./http-errors";
import type { Seed, Settings } from "./public-types";

/** An API token of the seed and what it may do. */
export interface TokenRecord {
  readonly organization: string;
  readonly webhooks: boolean;
  readonly user: string;
  /** Items read with this token carry a legacy `images.camera` when no image flag is set. */
  readonly presignCameraUrl: boolean;
}

/** A webhook as stored, its secret key included (never rendered). */
export interface WebhookRecord {
  readonly uuid: string;
  readonly organization: string;
  readonly user: string;
  readonly channel: string;
  readonly endpoint: string;
  readonly filters: readonly CanonicalFilter[];
  readonly secretKey: string;
  /** The generation it was created with, which shapes its deliveries. */
  readonly version: ApiVersion;
  /** The Accept-Language of its create request, which its deliveries' display strings follow. */
  readonly language: Language;
  readonly createdAt: number;
  /** Creation order, the listing order. */
  readonly seq: number;
  active: boolean;
}

/** A registered (or, once deactivated, removed) domain. */
export interface DomainRecord {
  readonly uuid: string;
  readonly organization: string;
  readonly user: string;
  readonly name: string;
  readonly verifier: string;
  readonly createdAt: number;
  /** Creation order, the listing order. */
  readonly seq: number;
  active: boolean;
}

/** A started domain registration waiting for its finish; its register token is a secret. */
export interface PendingRegistration {
  readonly organization: string;
  readonly domainName: string;
  readonly verifier: string;
  readonly registerToken: string;
  readonly expiresAt: number;
}

/** An authentication or fingerprint session: its stored item and delivery bookkeeping. */
export interface SessionRecord {
  readonly serviceId: string;
  readonly kind: SessionKind;
  readonly organization: string;
  readonly createdAt: number;
  /** Creation order: it breaks ties between sessions of the same timestamp. */
  readonly seq: number;
  item: Record<string, unknown>;
  updateCounter: number;
  updatedAt: number;
}

/** Everything the sandbox remembers, and the state transitions of spec section 3. */
export class SandboxStore {
  readonly tokens = new Map<string, TokenRecord>();
  readonly users = new Map<string, Set<string>>();
  readonly webhooks = new Map<string, WebhookRecord>();
  readonly domains = new Map<string, DomainRecord>();
  readonly pending = new Map<string, PendingRegistration>();
  readonly sessions = new Map<string, SessionRecord>();
  private readonly failedFinishes = new Map<string, { count: number; blockedUntil: number }>();
  private lastSeq = 0;

  constructor(
    seed: Seed,
    readonly settings: Settings,
    private readonly clock: SandboxClock,
  ) {
    for (const org of seed.organizations) {
      this.users.set(org.name, new Set(org.users));
      for (const t of org.tokens) {
        this.tokens.set(t.token, {
          organization: org.name,
          webhooks: t.webhooks,
          user: t.user ?? org.users[0] ?? `${org.name}-api`,
          presignCameraUrl: t.presign_camera_url,
        });
      }
    }
  }

  /** Active webhooks per organization, oldest first; deactivated ones stay in `webhooks` only. */
  private readonly active = new Map<string, Map<string, WebhookRecord>>();

  activeWebhooks(organization: string): WebhookRecord[] {
    return [...(this.active.get(organization)?.values() ?? [])];
  }

  activeDomains(organization: string): DomainRecord[] {
    return [...this.domains.values()].filter((d) => d.active && d.organization === organization);
  }

  isUser(organization: string, username: string): boolean {
    return this.users.get(organization)?.has(username) ?? false;
  }

  createWebhook(
    token: TokenRecord,
    input: {
      channel: string;
      endpoint: string;
      filters: readonly CanonicalFilter[];
      secretKey: string;
      version: ApiVersion;
      language: Language;
    },
    invalidStatus: number,
  ): WebhookRecord {
    const host = new URL(input.endpoint).hostname;
    if (!this.activeDomains(token.organization).some((d) => d.name === host)) {
      throw invalid(
        `endpoint domain ${host} is not registered to the organization`,
        [{ field: "endpoint.value", message: `domain ${host} is not registered` }],
        invalidStatus,
      );
    }
    for (const f of input.filters) {
      if (f.key !== "owner.user.username") continue;
      const strangers = f.values.filter((u) => !this.isUser(token.organization, u));
      if (strangers.length > 0) {
        throw invalid(
          `username ${strangers.join(", ")} is not in the organization`,
          [
            {
              field: "filters.owner.user.username",
              message: `${strangers.join(", ")} not in the organization`,
            },
          ],
          invalidStatus,
        );
      }
    }
    if (this.activeWebhooks(token.organization).length >= MAX_ACTIVE_WEBHOOKS) {
      throw new HttpError(
        409,
        "webhook_limit",
        `the organization already has ${MAX_ACTIVE_WEBHOOKS} active webhooks, the most it may have; deactivate one before creating another`,
      );
    }
    const record: WebhookRecord = {
      uuid: randomUUID(),
      organization: token.organization,
      user: token.user,
      ...input,
      createdAt: this.clock.now(),
      seq: ++this.lastSeq,
      active: true,
    };
    this.webhooks.set(record.uuid, record);
    const active = this.active.get(record.organization) ?? new Map<string, WebhookRecord>();
    active.set(record.uuid, record);
    this.active.set(record.organization, active);
    return record;
  }

  ownActiveWebhook(token: TokenRecord, uuid: string): WebhookRecord {
    const hook = this.webhooks.get(uuid);
    if (!hook?.active || hook.organization !== token.organization) throw notFound(`webhook ${uuid}`);
    return hook;
  }

  deactivateWebhook(token: TokenRecord, uuid: string): void {
    this.ownActiveWebhook(token, uuid).active = false;
    this.active.get(token.organization)?.delete(uuid);
  }

  startRegistration(token: TokenRecord, domainName: string): PendingRegistration {
    const registration: PendingRegistration = {
      organization: token.organization,
      domainName,
      verifier: randomBytes(16).toString("hex"),
      registerToken: randomBytes(32).toString("base64url"),
      expiresAt: this.clock.now() + this.settings.verificationTtlSeconds * 1000,
    };
    this.pending.set(`${token.organization}\u0000${registration.verifier}`, registration);
    return registration;
  }

  registeredDomain(organization: string, name: string): DomainRecord | undefined {
    return this.activeDomains(organization).find((d) => d.name === name);
  }

  /** Refuses a finish with 429 while the domain is blocked after repeated failed finishes. */
  assertFinishAllowed(organization: string, domainName: string): void {
    const blocked = this.failedFinishes.get(`${organization}\u0000${domainName}`);
    const now = this.clock.now();
    if (blocked && blocked.blockedUntil > now) {
      const wait = Math.ceil((blocked.blockedUntil - now) / 1000);
      throw new HttpError(
        429,
        "too_many_failed_attempts",
        `too many failed verification attempts for ${domainName}; wait ${wait} s before finishing again`,
        [],
        { "retry-after": String(wait) },
      );
    }
  }

  /** The live pending registration of `domainName` that `verifier` names; 400 once it has expired. */
  pendingRegistration(
    organization: string,
    domainName: string,
    verifier: string,
  ): PendingRegistration | undefined {
    const registration = this.pending.get(`${organization}\u0000${verifier}`);
    if (!registration || registration.domainName !== domainName) return undefined;
    if (this.clock.now() >= registration.expiresAt) {
      throw new HttpError(
        400,
        "verification_expired",
        `the verification link for ${domainName} expired at ${new Date(registration.expiresAt).toISOString()}; start registration again`,
      );
    }
    return registration;
  }

  recordFailedFinish(organization: string, domainName: string): void {
    const key = `${organization}\u0000${domainName}`;
    const entry = this.failedFinishes.get(key) ?? { count: 0, blockedUntil: 0 };
    entry.count += 1;
    if (entry.count >= this.settings.maxFailedFinishAttempts) {
      entry.count = 0;
      entry.blockedUntil = this.clock.now() + this.settings.finishBlockSeconds * 1000;
    }
    this.failedFinishes.set(key, entry);
  }

  completeRegistration(token: TokenRecord, registration: PendingRegistration): DomainRecord {
    const existing = this.registeredDomain(token.organization, registration.domainName);
    if (existing) return existing;
    const record: DomainRecord = {
      uuid: randomUUID(),
      organization: token.organization,
      user: token.user,
      name: registration.domainName,
      verifier: registration.verifier,
      createdAt: this.clock.now(),
      seq: ++this.lastSeq,
      active: true,
    };
    this.domains.set(record.uuid, record);
    for (const [key, p] of this.pending) {
      if (p.organization === token.organization && p.domainName === registration.domainName)
        this.pending.delete(key);
    }
    this.failedFinishes.delete(`${token.organization}\u0000${registration.domainName}`);
    return record;
  }

  deactivateDomain(token: TokenRecord, uuid: string): void {
    const domain = this.domains.get(uuid);
    if (!domain?.active || domain.organization !== token.organization) {
      throw new HttpError(
        400,
        "domain_not_registered",
        `domain ${uuid} is not registered to this organization (never registered, or already deactivated); register it again to use it`,
      );
    }
    const users = this.activeWebhooks(token.organization).filter(
      (w) => new URL(w.endpoint).hostname === domain.name,
    );
    if (users.length > 0) {
      throw new HttpError(
        409,
        "domain_in_use",
        `domain ${domain.name} is the host of active webhooks ${users.map((w) => w.uuid).join(", ")}; deactivate them first`,
      );
    }
    domain.active = false;
  }

  /** Creates a session, or merges `patch` into an existing one; either way the update counter grows. */
  upsertSession(
    organization: string,
    kind: SessionKind,
    serviceId: string | undefined,
    patch: Record<string, unknown>,
    build: (serviceId: string) => Record<string, unknown>,
  ): SessionRecord {
    const now = this.clock.now();
    const existing = serviceId === undefined ? undefined : this.sessions.get(serviceId);
    if (existing) {
      if (existing.organization !== organization || existing.kind !== kind) {
        throw invalid(
          `session ${serviceId} belongs to another organization or kind; omit service_id to create a new session`,
        );
      }
      existing.item = deepMerge(existing.item, patch);
      existing.updateCounter += 1;
      existing.updatedAt = now;
      return existing;
    }
    const id = serviceId ?? randomUUID();
    const record: SessionRecord = {
      serviceId: id,
      kind,
      organization,
      createdAt: now,
      seq: ++this.lastSeq,
      updatedAt: now,
      item: deepMerge(build(id), patch),
      updateCounter: 1,
    };
    this.sessions.set(id, record);
    return record;
  }
}

/** `base` with `patch` merged in, objects member by member, anything else replaced. */
function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
