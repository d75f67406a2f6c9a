// pulumi-language-python is this repository's stand-in for Pulumi's Python language host, whose module the
// Go module proxy here refuses. Like the real one, it runs a program through `pulumi-language-python-exec`
// (the script of the same release's sdk module, installed beside it) in the project's toolchain and
// virtual environment, reports the plugins the installed SDKs require, installs dependencies, and
// generates Python SDKs with Pulumi's own generator.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"

	"github.com/service-pulumi/service-pulumi/engine/hosts/langhost"
)

const name = "pulumi-language-python"

type host struct{ langhost.Base }

func main() {
	langhost.Serve(name, func(engineAddress string) pulumirpc.LanguageRuntimeServer {
		return &host{langhost.Base{EngineAddress: engineAddress}}
	})
}

// pythonToolchain resolves the project's toolchain (pip, poetry or uv) and virtual environment from
// Pulumi.yaml's runtime options, as the real host does.
func pythonToolchain(info *pulumirpc.ProgramInfo, pwd string) (toolchain.Toolchain, error) {
	options := toolchain.PythonOptions{
		Root:       info.GetRootDirectory(),
		ProgramDir: langhost.ProgramDirectory(info, pwd),
		Virtualenv: langhost.Option(info, "virtualenv"),
		Toolchain:  toolchain.Pip,
	}
	switch choice := langhost.Option(info, "toolchain"); choice {
	case "", "pip":
	case "poetry":
		options.Toolchain = toolchain.Poetry
	case "uv":
		options.Toolchain = toolchain.Uv
	default:
		return nil, fmt.Errorf("Pulumi.yaml's runtime option toolchain is %q: use pip, poetry or uv", choice)
	}
	return toolchain.ResolveToolchain(options)
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	tc, err := pythonToolchain(req.GetInfo(), req.GetPwd())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"-u", filepath.Join(filepath.Dir(self), name+"-exec")}
	flag := func(key, value string) {
		if value != "" {
			args = append(args, "--"+key, value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", h.EngineAddress)
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("pwd", req.GetPwd())
	flag("dry_run", strconv.FormatBool(req.GetDryRun()))
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	flag("organization", req.GetOrganization())
	flag("root_directory", req.GetInfo().GetRootDirectory())
	program := req.GetInfo().GetEntryPoint()
	if program == "" {
		program = "."
	}
	args = append(append(args, program), req.GetArgs()...)

	cmd, err := tc.Command(ctx, args...)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	config, err := langhost.ConfigEnvironment(req)
	if err != nil {
		return nil, err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, config...)
	cmd.Dir = langhost.ProgramDirectory(req.GetInfo(), req.GetPwd())
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return langhost.RunProgram(cmd), nil
}

// listPluginFiles prints, as JSON, the pulumi-plugin.json of every installed distribution that has one.
const listPluginFiles = `
import importlib.metadata, json
found = {}
for dist in importlib.metadata.distributions():
    for file in dist.files or []:
        if file.name == "pulumi-plugin.json":
            found[dist.metadata["Name"] + ": " + str(file)] = file.read_text()
print(json.dumps(found))
`

func (h *host) GetRequiredPackages(
	ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	packages, err := requiredPackages(ctx, req.GetInfo())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

func (h *host) GetRequiredPlugins(
	ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	packages, err := requiredPackages(ctx, req.GetInfo())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: langhost.PluginsOf(packages)}, nil
}

func requiredPackages(ctx context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error) {
	tc, err := pythonToolchain(info, "")
	if err != nil {
		return nil, err
	}
	cmd, err := tc.Command(ctx, "-c", listPluginFiles)
	if err != nil {
		return nil, err
	}
	cmd.Dir = langhost.ProgramDirectory(info, "")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("could not list the installed Python packages with %s: %w", cmd.Path, err)
	}
	var found map[string]string
	if err := json.Unmarshal(out, &found); err != nil {
		return nil, fmt.Errorf("could not read the list of installed Python packages: %w", err)
	}
	files := make(map[string][]byte, len(found))
	for from, text := range found {
		files[from] = []byte(text)
	}
	return langhost.PackagesFromPluginFiles(files)
}

func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, stream pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	tc, err := pythonToolchain(req.GetInfo(), req.GetDirectory())
	if err != nil {
		return err
	}
	stdout, stderr := langhost.InstallOutput(stream)
	ctx := stream.Context()
	dir := langhost.ProgramDirectory(req.GetInfo(), req.GetDirectory())
	if err := tc.EnsureVenv(ctx, dir, req.GetUseLanguageVersionTools(), true, stdout, stderr); err != nil {
		return err
	}
	return tc.InstallDependencies(ctx, dir, req.GetUseLanguageVersionTools(), true, stdout, stderr)
}

func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return langhost.GeneratePackage(ctx, req, func(
		pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader,
	) (map[string][]byte, error) {
		return python.GeneratePackage(name, pkg, req.GetExtraFiles(), loader)
	})
}

func (h *host) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return langhost.GenerateProgram(ctx, req, python.GenerateProgram)
}
