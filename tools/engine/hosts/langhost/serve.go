// Package langhost holds what this repository's language-host stand-ins share: serving the engine's
// LanguageRuntime protocol on a free port, the program's configuration as the SDKs read it, and code
// generation through Pulumi's own generators, of a package's SDK (`pulumi package gen-sdk`) and of the
// program code that `pulumi import` prints.
//
// The real hosts for Python and Go live in modules of their own that the Go module proxy here refuses
// (docs/engine.md), so these stand-ins do the part the tests and users need: run a program, report the
// plugins its packages require, install its dependencies (Python), generate an SDK and generate program
// code. The rest (debugging, packing, `pulumi about` details) answers UNIMPLEMENTED.
package langhost

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Version is what the stand-ins report as their own: the Pulumi release they are built against,
// stamped at build time by tools/engine/engine.mts.
var Version = "v3.0.0-dev"

// Base answers what every stand-in answers the same way. Each host embeds it and overrides the rest;
// the methods it does not override answer UNIMPLEMENTED, which the engine reports by their name.
type Base struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	// EngineAddress is the engine's gRPC address: from the command line, or from the handshake.
	EngineAddress string
}

// GetPluginInfo reports the release the host was built against.
func (b *Base) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: Version}, nil
}

// Handshake records the engine's address; newer engines send it here rather than on the command line.
func (b *Base) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	b.EngineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

// Serve parses the flags the engine passes to a language host, serves host on a free port, prints the
// port (which is how the engine learns it) and returns when the engine closes the connection.
func Serve(name string, newHost func(engineAddress string) pulumirpc.LanguageRuntimeServer) {
	// The engine passes -root, -tracing and logging flags; only the engine's address (the last argument)
	// matters here, but unknown flags must not stop the host.
	flags := flag.NewFlagSet(name, flag.ContinueOnError)
	flags.String("root", "", "the project's root folder")
	flags.String("tracing", "", "a tracing endpoint (ignored)")
	flags.Bool("logtostderr", false, "(ignored)")
	flags.Bool("logflow", false, "(ignored)")
	flags.Int("v", 0, "(ignored)")
	_ = flags.Parse(os.Args[1:])
	engineAddress := ""
	if rest := flags.Args(); len(rest) > 0 {
		engineAddress = rest[len(rest)-1]
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(server *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(server, newHost(engineAddress))
			return nil
		},
		Cancel: parentGone(name),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: could not start its gRPC server: %v\n", name, err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "%s: its gRPC server stopped: %v\n", name, err)
		os.Exit(1)
	}
}

// How often a host looks whether the process that started it is still there, and how long its calls in
// flight get to end once it is gone.
const (
	parentPollInterval = 500 * time.Millisecond
	stopGracePeriod    = 5 * time.Second
)

// parentGone returns a channel closed once the process that started the host (the engine) is gone, which
// shows as a change of parent pid: the host is reparented to init, or to a subreaper. The server then
// stops gracefully; a call still in flight after the grace period ends with the process. The engine stops
// the hosts it closes, but a host it never closes would otherwise outlive it under init.
func parentGone(name string) chan bool {
	gone := make(chan bool)
	parent := os.Getppid()
	go func() {
		for os.Getppid() == parent {
			time.Sleep(parentPollInterval)
		}
		close(gone)
		time.Sleep(stopGracePeriod)
		fmt.Fprintf(os.Stderr, "%s: stopped: its engine (pid %d) is gone\n", name, parent)
		os.Exit(0)
	}()
	return gone
}
