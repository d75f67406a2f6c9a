// pulumi-language-go is this repository's stand-in for Pulumi's Go language host, whose module the Go
// module proxy here refuses. Like the real one, it builds the program with `go build` (or runs the
// `binary` that Pulumi.yaml names), hands it the engine's addresses and the stack's configuration through
// the environment the Go SDK reads, reports the plugins of the SDKs it imports, and generates Go SDKs
// with Pulumi's own generator.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/service-pulumi/service-pulumi/engine/hosts/langhost"
)

const name = "pulumi-language-go"

type host struct{ langhost.Base }

func main() {
	langhost.Serve(name, func(engineAddress string) pulumirpc.LanguageRuntimeServer {
		return &host{langhost.Base{EngineAddress: engineAddress}}
	})
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	dir := langhost.ProgramDirectory(req.GetInfo(), req.GetPwd())
	program := langhost.Option(req.GetInfo(), "binary")
	if program == "" {
		built, cleanup, err := build(ctx, dir)
		if err != nil {
			return &pulumirpc.RunResponse{Error: err.Error()}, nil
		}
		defer cleanup()
		program = built
	} else if !filepath.IsAbs(program) {
		program = filepath.Join(dir, program)
	}

	config, err := langhost.ConfigEnvironment(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, program, req.GetArgs()...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), config...),
		"PULUMI_MONITOR="+req.GetMonitorAddress(),
		"PULUMI_ENGINE="+h.EngineAddress,
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_ROOT_DIRECTORY="+req.GetInfo().GetRootDirectory(),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
		"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
	)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return langhost.RunProgram(cmd), nil
}

// build compiles the program in dir into a temporary folder, which cleanup removes.
func build(ctx context.Context, dir string) (string, func(), error) {
	out, err := os.MkdirTemp("", "pulumi-go-program-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { _ = os.RemoveAll(out) }
	binary := filepath.Join(out, "program")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", binary, ".")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("`go build` of the program in %s failed (its output is above): %w", dir, err)
	}
	return binary, cleanup, nil
}

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

// requiredPackages reads the pulumi-plugin.json of every Go package the program imports.
func requiredPackages(ctx context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-json=ImportPath,Dir", "./...")
	cmd.Dir = langhost.ProgramDirectory(info, "")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("`go list` of the program's packages failed in %s: %w%s", cmd.Dir, err, stderrOf(err))
	}
	files := map[string][]byte{}
	decoder := json.NewDecoder(bytes.NewReader(out))
	for {
		var pkg struct{ ImportPath, Dir string }
		if err := decoder.Decode(&pkg); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		if text, err := os.ReadFile(filepath.Join(pkg.Dir, "pulumi-plugin.json")); err == nil {
			files[pkg.ImportPath] = text
		}
	}
	return langhost.PackagesFromPluginFiles(files)
}

func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return langhost.GeneratePackage(ctx, req, func(
		pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, _ schema.ReferenceLoader,
	) (map[string][]byte, error) {
		return gogen.GeneratePackage(name, pkg, req.GetLocalDependencies())
	})
}

// stderrOf is what a failed command printed, for the message that reports its failure.
func stderrOf(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) && len(exit.Stderr) > 0 {
		return ":\n" + string(exit.Stderr)
	}
	return ""
}

func (h *host) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return langhost.GenerateProgram(ctx, req, gogen.GenerateProgram)
}
