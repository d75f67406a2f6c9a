import { describe, expect, it } from "vitest";
import { clientOf, failureOf, scripted, useScriptedServers } from "../../helpers/scripted-server";

/** Reading a 2xx body with its route's schema: what the client refuses, and how it names the place at fault. */

useScriptedServers();

describe("a 2xx body", () => {
  it("refuses a 2xx body that is not JSON, or not of the documented shape, naming where", async () => {
    const bodies = ["<html>", JSON.stringify("just a string"), JSON.stringify({ status: 1 })];
    const server = await scripted((_r, index, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(bodies[index]);
    });
    const client = clientOf(server.url);
    const messages = [];
    for (let i = 0; i < bodies.length; i++) messages.push((await failureOf(client.health())).message);
    expect(messages[0]).toBe(
      `GET ${server.url}/v1/health answered with a body the client cannot read: the body is not JSON. Check that the base URL points at the Service API.`,
    );
    expect(messages[1]).toMatch(/cannot read: \(body\) Invalid input/);
    expect(messages[2]).toMatch(/cannot read: status Invalid input/);
  });

  it("names the path inside the body that does not have the documented shape", async () => {
    const server = await scripted(() => ({
      items: [{ endpoint: { type: "url", value: "https://h.example.com/e" } }],
    }));
    const error = await failureOf(clientOf(server.url).webhooks.list());
    expect(error.message).toMatch(/cannot read: items\.0\.webhook_uuid Invalid input/);
  });
});
