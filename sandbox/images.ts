import { IMAGE_URL_LIFETIME_SECONDS, type ImageRequest, imageForm } from "../contract/sessions/requests";
import type { SandboxClock } from "./clock";
import type { Signer } from "./signer";

/** Where the sandbox serves the images it links to. */
export const IMAGE_ROUTE = "/_sandbox/images/:service_id/:name";

/** Photo regions of every session; the service's region keys are not shown. */
const REGIONS = ["overview", "detail"] as const;
const TYPES = ["thumbnail", "high_resolution"] as const;

/** Why an image URL is refused, or undefined when it may be served. */
type ImageRefusal = { status: 403 | 410; code: string; message: string } | undefined;

/**
 * Temporary image URLs (spec 2.5): presigned, so nothing is stored per URL, and expiring
 * IMAGE_URL_LIFETIME_SECONDS after issue on the sandbox clock.
 */
export class ImageUrls {
  constructor(
    private readonly signer: Signer,
    private readonly clock: SandboxClock,
  ) {}

  /** A URL of image `name` of a session, valid for IMAGE_URL_LIFETIME_SECONDS from now. */
  url(origin: string, serviceId: string, name: string): string {
    const expires = this.clock.now() + IMAGE_URL_LIFETIME_SECONDS * 1000;
    const signature = this.signer.sign(`${serviceId}/${name}/${expires}`);
    const path = IMAGE_ROUTE.replace(":service_id", encodeURIComponent(serviceId)).replace(":name", name);
    return `${origin}${path}?expires=${expires}&signature=${signature}`;
  }

  /** Why the URL with these parts may not be served now: altered (403) or expired (410). */
  refusal(serviceId: string, name: string, expires: string, signature: string): ImageRefusal {
    if (!/^\d+$/.test(expires) || !this.signer.verify(`${serviceId}/${name}/${expires}`, signature)) {
      return {
        status: 403,
        code: "image_url_invalid",
        message: `image URL for ${serviceId}/${name} is not one this sandbox issued, or was altered; get the item again for a fresh URL`,
      };
    }
    if (this.clock.now() >= Number(expires)) {
      return {
        status: 410,
        code: "image_url_expired",
        message: `image URL for ${serviceId}/${name} expired at ${new Date(Number(expires)).toISOString()}; get the item again for a fresh URL`,
      };
    }
    return undefined;
  }
}

/**
 * `item.images` for the flags in effect (spec 2.5), or undefined to leave it out: the `{type, url}`
 * array, the region-keyed photos, or, with neither flag, the legacy camera object for a token that
 * presigns camera URLs.
 */
export function renderImages(
  urls: ImageUrls,
  origin: string,
  serviceId: string,
  request: ImageRequest,
  presignCameraUrl: boolean,
): unknown {
  const link = (name: string) => urls.url(origin, serviceId, name);
  switch (imageForm(request)) {
    case "typed":
      return REGIONS.flatMap((region) => TYPES.map((type) => ({ type, url: link(`${region}-${type}`) })));
    case "photos":
      return { photos: Object.fromEntries(REGIONS.map((region) => [region, [{ url: link(region) }]])) };
    case "none":
      return presignCameraUrl ? { camera: { url: link("camera") } } : undefined;
  }
}
