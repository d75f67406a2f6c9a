"""Switches this project from the npm package to the release artifacts, which need no Node.js.

Usage: python3 use_release.py <folder of the release artifacts, such as <clone>/dist/release>

It reads the folder's MANIFEST.json, then:
- copies the service SDK's wheel into wheels/ and names it in requirements.txt, in place of the SDK inside
  node_modules/;
- removes the `plugins:` block from Pulumi.yaml, which points the engine at node_modules/, and
  package.json, which installs it;
- installs the plugin binary for this machine with `pulumi plugin install`.
Run it once, in a fresh copy of this folder; then create the virtualenv as the README says.
"""

import json
import pathlib
import platform
import re
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
# Pulumi's names of this machine's operating system and architecture, as the plugin tarballs use them.
OS = {"Linux": "linux", "Darwin": "darwin", "Windows": "windows"}
ARCH = {"x86_64": "amd64", "AMD64": "amd64", "aarch64": "arm64", "arm64": "arm64"}
NPM_SDK = re.compile(r"^\./node_modules/@service/pulumi/sdk/python[ \t]*$", re.MULTILINE)
PLUGINS_BLOCK = re.compile(r"^plugins:\n(?:[ #].*\n|\n)*", re.MULTILINE)


def fail(message: str) -> None:
    sys.exit(f"use_release.py: {message}")


def main() -> None:
    if len(sys.argv) != 2:
        fail("give the folder of the release artifacts, such as <clone>/dist/release (`npm run release` writes it)")
    release = pathlib.Path(sys.argv[1]).resolve()
    manifest_file = release / "MANIFEST.json"
    if not manifest_file.is_file():
        fail(f"{release} has no MANIFEST.json: give the folder `npm run release` writes, dist/release")
    manifest = json.loads(manifest_file.read_text())

    here_os, here_arch = OS.get(platform.system()), ARCH.get(platform.machine())
    plugin = next(
        (f for f in manifest["plugin"]["files"] if f["os"] == here_os and f["arch"] == here_arch), None
    )
    if plugin is None:
        built = ", ".join(f"{f['os']}-{f['arch']}" for f in manifest["plugin"]["files"])
        fail(f"the release has no plugin for {platform.system()} {platform.machine()} (built: {built})")

    requirements = HERE / "requirements.txt"
    if not NPM_SDK.search(requirements.read_text()):
        fail("requirements.txt names no SDK inside node_modules/: this copy was switched already")
    wheel = manifest["python"]["wheel"]
    (HERE / "wheels").mkdir(exist_ok=True)
    shutil.copyfile(release / wheel, HERE / "wheels" / wheel)
    requirements.write_text(
        NPM_SDK.sub(f"./wheels/{wheel}", requirements.read_text()).replace(
            "# The service SDK, generated from the plugin's schema, inside the npm package (`npm install` first).",
            "# The service SDK, from the release's wheel (use_release.py copied it here).",
        )
    )
    project = HERE / "Pulumi.yaml"
    project.write_text(PLUGINS_BLOCK.sub("", project.read_text()))
    (HERE / "package.json").unlink(missing_ok=True)

    subprocess.run(
        [
            "pulumi", "plugin", "install", "resource", "service", manifest["version"],
            "--file", str(release / plugin["file"]),
        ],
        check=True,
    )
    print(f"Switched to the release {manifest['version']}: wheels/{wheel}, and the plugin for {here_os}-{here_arch}.")


if __name__ == "__main__":
    main()
