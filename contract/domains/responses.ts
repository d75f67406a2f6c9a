import { z } from "zod";
import { exactly } from "../common-types";
import { Timestamp, WireOwner } from "../responses";
import type * as Shapes from "./types";

/** What the service responds about domains and their registration (spec 2.7, 2.8). */
export const Domain = exactly<Shapes.Domain>()(
  z.object({
    domain_uuid: z.string(),
    domain_name: z.string(),
    domain_owner: WireOwner.optional(),
    create_timestamp: Timestamp.optional(),
    create_time: Timestamp.optional(),
    verifier: z.string().optional(),
  }),
);

export const DomainRegistrationStart = exactly<Shapes.DomainRegistrationStart>()(
  z.object({
    domain_name: z.string(),
    url: z.string(),
    verifier: z.string(),
    register_token: z.string(),
    expires_at: z.string(),
  }),
);
