/**
 * The provider plugin's entry in its single-file bundle, the script of the plugin binary (Node's
 * single-executable application, built by plugin-binary.mts). It serves the engine exactly as
 * `plugin/index.js` does, but with no Node.js or node_modules on the machine, so its one failure
 * message cannot tell the user to install them.
 */
import { serve } from "../../provider/plugin/main";

// A single-executable application's argv repeats the executable in argv[1], as `node script` would.
serve(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `The service provider plugin could not start: ${(error as Error)?.message ?? error}. ` +
      "Reinstall it with `pulumi plugin install resource service <version>`, then run the Pulumi command again.\n",
  );
  process.exit(1);
});
