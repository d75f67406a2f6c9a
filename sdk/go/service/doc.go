// Declare Service webhooks and verified webhook domains as code with Pulumi, with a local sandbox of the Service API.
package service
