package langhost

import (
	"encoding/json"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ConfigEnvironment is the stack's configuration as every Pulumi SDK reads it: PULUMI_CONFIG, a JSON
// object of the values, and PULUMI_CONFIG_SECRET_KEYS, a JSON array of the keys that are secret.
func ConfigEnvironment(req *pulumirpc.RunRequest) ([]string, error) {
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	values, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secrets, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return []string{"PULUMI_CONFIG=" + string(values), "PULUMI_CONFIG_SECRET_KEYS=" + string(secrets)}, nil
}

// ExitedAfterMessage is the exit code by which every SDK's program runner says it already printed an
// actionable message, so the engine should not add one of its own.
const ExitedAfterMessage = 32
