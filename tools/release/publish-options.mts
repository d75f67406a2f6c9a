/**
 * What every publishing step of publish.mts is given: the release folder and its manifest, and the
 * command line's options, each of which only some steps take.
 */
import type { Manifest } from "./manifest.mts";

/** A step's inputs. */
export interface PublishOptions {
  /** The release folder, absolute (dist/release unless `--release` says otherwise). */
  readonly release: string;
  /** Its MANIFEST.json. */
  readonly manifest: Manifest;
  /** `--registry`: where npm, PyPI or NuGet receive the package; each step has the public one as default. */
  readonly registry?: string;
  /** `--provenance`: npm signs the package's provenance with the CI's OIDC token. */
  readonly provenance: boolean;
  /** `--dry-run`: check everything, print the commands, run none that reaches outside this machine. */
  readonly dryRun: boolean;
  /** `--repo owner/name`: the GitHub repository the release and the tag go to. */
  readonly repo?: string;
  /** `--commit`: the commit the Go module's tag names (HEAD unless given). */
  readonly commit: string;
  /** `--copy-to`: with --dry-run, the GitHub release's assets copied there, a stand-in for the release. */
  readonly copyTo?: string;
}
