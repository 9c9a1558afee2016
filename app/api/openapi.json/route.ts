import { route } from "@/lib/http/route";
import { buildOpenApi } from "@/lib/http/openapi";
import { apiRoutes } from "./manifest";

/** GET /api/openapi.json: the OpenAPI 3.1 document of every route, generated from their route() options (lib/http/openapi.ts). Public: it holds no data. */
export const GET = route({ roles: "public", summary: "This OpenAPI document" }, ({ request }) =>
  Response.json(buildOpenApi(apiRoutes, new URL(request.url).origin), { headers: { "cache-control": "public, max-age=60" } }),
);
