import { route } from "@/lib/http/route";

/**
 * Any /api path no route handler serves: a JSON 404 (Next.js would answer with its HTML 404 page),
 * so that API clients always get a machine-readable error. Routes with a handler take precedence.
 */
const notFound = route({ roles: "public" }, ({ request }) => {
  const { pathname } = new URL(request.url);
  return Response.json({ error: `No API endpoint at ${pathname.slice(0, 200)}`, code: "NOT_FOUND" }, { status: 404 });
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
