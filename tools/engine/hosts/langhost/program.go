package langhost

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ProgramDirectory is the folder of the program the engine asks for: Pulumi.yaml's `main`, else the root.
func ProgramDirectory(info *pulumirpc.ProgramInfo, pwd string) string {
	if dir := info.GetProgramDirectory(); dir != "" {
		return dir
	}
	if root := info.GetRootDirectory(); root != "" {
		return root
	}
	return pwd
}

// Option reads a string from Pulumi.yaml's `runtime.options`, or "" when it is absent.
func Option(info *pulumirpc.ProgramInfo, name string) string {
	if options := info.GetOptions(); options != nil {
		if value, ok := options.GetFields()[name]; ok {
			return value.GetStringValue()
		}
	}
	return ""
}

// RunProgram runs a program to its end and turns its exit into the engine's answer: a bail when it
// already printed an actionable message, its exit code otherwise, and a failure to start as such.
func RunProgram(cmd *exec.Cmd) *pulumirpc.RunResponse {
	err := cmd.Run()
	if err == nil {
		return &pulumirpc.RunResponse{}
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if exit.ExitCode() == ExitedAfterMessage {
			return &pulumirpc.RunResponse{Bail: true}
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the program exited with code %d", exit.ExitCode())}
	}
	return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not start %s: %v", filepath.Base(cmd.Path), err)}
}

// streamWriter sends what a dependency installer prints back to the engine as it comes.
type streamWriter struct {
	stream pulumirpc.LanguageRuntime_InstallDependenciesServer
	stderr bool
}

func (w streamWriter) Write(p []byte) (int, error) {
	chunk := append([]byte(nil), p...)
	response := &pulumirpc.InstallDependenciesResponse{Stdout: chunk}
	if w.stderr {
		response = &pulumirpc.InstallDependenciesResponse{Stderr: chunk}
	}
	if err := w.stream.Send(response); err != nil {
		return 0, err
	}
	return len(p), nil
}

// InstallOutput is the pair of writers through which `pulumi install` shows an installer's output.
func InstallOutput(stream pulumirpc.LanguageRuntime_InstallDependenciesServer) (stdout, stderr io.Writer) {
	return streamWriter{stream: stream}, streamWriter{stream: stream, stderr: true}
}
