/**
 * The files of a zip archive, read with Node alone: the Go module zip is checked against the commit a
 * release tags (publish-go.mts), on machines that may have no unzip. Stored and deflated entries only,
 * without ZIP64: what golang.org/x/mod/zip writes for a module of this size.
 */
import { readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes, after which a comment of up to 65,535 bytes may follow. */
const END_SEARCH = 22 + 0xffff;

/** Every file of the zip at `path`, by its name in the archive; folders are left out. */
export function zipEntries(path: string): Map<string, Buffer> {
  const zip = readFileSync(path);
  const fail = (why: string) => new Error(`${path} is not a zip this reader knows: ${why}.`);
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - END_SEARCH); at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw fail("no end of central directory");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== CENTRAL_ENTRY) throw fail(`entry ${i} of the central directory is damaged`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (name.endsWith("/")) continue;
    if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw fail(`the local header of ${name} is damaged`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    if (method === 0) files.set(name, Buffer.from(data));
    else if (method === 8) files.set(name, inflateRawSync(data));
    else throw fail(`${name} is compressed by method ${method}, neither stored (0) nor deflated (8)`);
  }
  return files;
}
