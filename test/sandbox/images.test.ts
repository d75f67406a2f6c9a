import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock, type Sandbox, startSandbox } from "../../sandbox/index";
import { plainApi } from "../helpers/http";

/** Item images (spec 2.5): both generations, both flags, their precedence, and the one-hour URLs. */
const TOKEN = "images-token-0123456789";
const CAMERA_TOKEN = "camera-token-0123456789";

let sandbox: Sandbox;
let clock: ManualClock;
let api: ReturnType<typeof plainApi>;
let auth: string;
let fingerprint: string;

beforeEach(async () => {
  clock = new ManualClock();
  sandbox = await startSandbox({
    clock,
    seed: {
      organizations: [
        {
          name: "acme",
          users: ["acme-alice"],
          tokens: [{ token: TOKEN }, { token: CAMERA_TOKEN, presign_camera_url: true }],
        },
      ],
      settings: { rateLimitPerSecond: 0 },
    },
  });
  api = plainApi(sandbox.url, { token: TOKEN });
  auth = sandbox.upsertSession({ organization: "acme", kind: "authentication" }).service_id;
  fingerprint = sandbox.upsertSession({ organization: "acme", kind: "fingerprint" }).service_id;
});
afterEach(() => sandbox.close());

const PHOTOS = "format_options__return_item_photos=true";
const TYPED = "include_images=true";

async function images(path: string, token = TOKEN): Promise<any> {
  const res = await api("GET", path, { token });
  expect(res.status, path).toBe(200);
  return res.json.item.images;
}

function expectTyped(value: any) {
  expect(Array.isArray(value)).toBe(true);
  expect(value.length).toBeGreaterThan(0);
  expect(new Set(value.map((i: { type: string }) => i.type))).toEqual(
    new Set(["thumbnail", "high_resolution"]),
  );
  for (const image of value) expect(image.url).toMatch(/^http:\/\//);
}

function expectPhotos(value: any) {
  expect(Array.isArray(value)).toBe(false);
  expect(Object.keys(value)).toEqual(["photos"]);
  const regions = Object.values(value.photos) as { url: string }[][];
  expect(regions.length).toBeGreaterThan(0);
  for (const photo of regions.flat()) expect(photo.url).toMatch(/^http:\/\//);
}

describe("v1.4", () => {
  it("GET and lookup give images.photos with format_options__return_item_photos=true, none by default", async () => {
    expect(await images(`/v1/authentications/${auth}`)).toBeUndefined();
    expect(
      await images(`/v1/authentications/${auth}?format_options__return_item_photos=false`),
    ).toBeUndefined();
    expectPhotos(await images(`/v1/authentications/${auth}?${PHOTOS}`));
    const sku = (await api("GET", `/v1/authentications/${auth}`)).json.item.text_fields.customer_item_id;
    expectPhotos(await images(`/v1/lookup/authentications/${sku}?${PHOTOS}`));
    // include_images is not a v1.4 parameter
    expect(await images(`/v1/authentications/${auth}?${TYPED}`)).toBeUndefined();
  });

  it("authentication search reads format_options.return_item_photos; fingerprint search has no image flag", async () => {
    const on = { format_options: { return_item_photos: true } };
    expectPhotos((await api("POST", "/v1/search/authentications", { body: on })).json.items[0].images);
    expect(
      (await api("POST", "/v1/search/authentications", { body: {} })).json.items[0].images,
    ).toBeUndefined();
    expect((await api("POST", "/v1/search/fingerprints", { body: on })).json.items[0].images).toBeUndefined();
    // include_images is not a v1.4 member: it asks for nothing
    const typed = await api("POST", "/v1/search/authentications", { body: { include_images: true } });
    expect(typed.json.items[0].images).toBeUndefined();
    expect(await images(`/v1/fingerprints/${fingerprint}?${PHOTOS}`)).toBeUndefined();
  });
});

describe("v2", () => {
  it("GET: include_images gives the {type, url} array, the photos flag images.photos, both the array", async () => {
    for (const path of [`/v2/authentications/${auth}`, `/v2/fingerprints/${fingerprint}`]) {
      expect(await images(path)).toBeUndefined();
      expectTyped(await images(`${path}?${TYPED}`));
      expectPhotos(await images(`${path}?${PHOTOS}`));
      expectTyped(await images(`${path}?${TYPED}&${PHOTOS}`));
    }
  });

  it("search reads the body members only, never the GET query flags", async () => {
    const search = async (body: unknown, query = "") =>
      (await api("POST", `/v2/search/authentications${query}`, { body })).json.items[0].images;
    expectTyped(await search({ include_images: true }));
    expectPhotos(await search({ format_options: { return_item_photos: true } }));
    expectTyped(await search({ include_images: true, format_options: { return_item_photos: true } }));
    expect(await search({ include_images: null, format_options: null })).toBeUndefined();
    expect(await search({}, `?${TYPED}&${PHOTOS}`)).toBeUndefined();
    expectTyped(
      (await api("POST", "/v2/search/fingerprints", { body: { include_images: true } })).json.items[0].images,
    );
  });

  it("refuses a flag that is not a boolean", async () => {
    const res = await api("GET", `/v2/authentications/${auth}?include_images=maybe`);
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual([{ field: "include_images", message: "must be true or false" }]);
    const searched = await api("POST", "/v2/search/authentications", {
      body: { include_images: "true", format_options: { return_item_photos: 1 } },
    });
    expect(searched.status).toBe(400);
    expect(searched.json.error.fields).toEqual([
      { field: "format_options.return_item_photos", message: "must be true or false" },
      { field: "include_images", message: "must be true or false" },
    ]);
  });

  it("reads a query flag as true or false, 1 or 0, in any case", async () => {
    const path = `/v2/authentications/${auth}`;
    for (const yes of ["true", "TRUE", "1"]) expectTyped(await images(`${path}?include_images=${yes}`));
    for (const no of ["false", "False", "0"])
      expect(await images(`${path}?include_images=${no}`)).toBeUndefined();
  });
});

describe("a token configured with presign_camera_url", () => {
  it("gets a legacy images.camera object when neither flag is set, in both generations", async () => {
    for (const path of [`/v2/authentications/${auth}`, `/v1/authentications/${auth}`]) {
      const camera = await images(path, CAMERA_TOKEN);
      expect(Object.keys(camera)).toEqual(["camera"]);
      expect(camera.camera.url).toMatch(/^http:\/\//);
    }
    expectTyped(await images(`/v2/authentications/${auth}?${TYPED}`, CAMERA_TOKEN));
    const listed = await api("POST", "/v2/search/authentications", { token: CAMERA_TOKEN, body: {} });
    expect(listed.json.items[0].images.camera.url).toMatch(/^http:\/\//);
  });
});

describe("image URLs", () => {
  it("serve an image until one hour after issue on the sandbox clock, then answer 410", async () => {
    const [first] = await images(`/v2/authentications/${auth}?${TYPED}`);
    const served = await fetch(first.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    clock.advance(3600_000 - 1);
    expect((await fetch(first.url)).status).toBe(200);
    clock.advance(1);
    const expired = await fetch(first.url);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as any).error.message).toMatch(/expired.*get the item again/);
    const [fresh] = await images(`/v2/authentications/${auth}?${TYPED}`);
    expect((await fetch(fresh.url)).status).toBe(200);
  });

  it("answer 403 to a URL whose expiry or signature was altered", async () => {
    const [first] = await images(`/v2/authentications/${auth}?${TYPED}`);
    const url = new URL(first.url);
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600_000));
    expect((await fetch(url)).status).toBe(403);
    const other = new URL(first.url.replace(auth, fingerprint));
    expect((await fetch(other)).status).toBe(403);
  });
});
