import { Card } from "@/components/ui/card";

type Operation = {
  summary: string;
  description: string;
  parameters: Array<{ name: string; in: string; required: boolean; schema: unknown }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  "x-yardstick-scope": string;
};

const methodTone: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  patch: "bg-amber-100 text-amber-800",
  put: "bg-amber-100 text-amber-800",
  delete: "bg-red-100 text-red-800",
};

/** The OpenAPI document (lib/http/openapi.ts) as a page: each route, who may call it, the scope a token needs, its parameters and body schema. */
export function ApiReference({ doc }: { doc: { paths: Record<string, Record<string, Operation>> } }) {
  const groups = new Map<string, Array<[string, string, Operation]>>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    const group = path.split("/")[2] ?? "api";
    for (const [method, operation] of Object.entries(operations)) groups.set(group, [...(groups.get(group) ?? []), [path, method, operation]]);
  }
  return (
    <div className="space-y-6">
      {[...groups.entries()].map(([group, operations]) => (
        <Card key={group}>
          <h2 className="border-b border-slate-100 px-5 py-3 text-base font-semibold text-slate-900">/api/{group}</h2>
          <ul className="divide-y divide-slate-100">
            {operations.map(([path, method, operation]) => (
              <li key={`${method} ${path}`} className="px-5 py-3">
                <div className="flex flex-wrap items-baseline gap-2">
                  <span className={`rounded px-1.5 py-0.5 font-mono text-xs font-semibold uppercase ${methodTone[method] ?? "bg-slate-100"}`}>{method}</span>
                  <code className="break-all font-mono text-sm text-slate-900">{path}</code>
                  <span className="text-sm text-slate-600">{operation.summary}</span>
                </div>
                <p className="mt-1 text-xs text-slate-500">{operation.description}</p>
                {operation.parameters.length > 0 || operation.requestBody ? (
                  <details className="mt-2 text-sm">
                    <summary className="cursor-pointer text-brand-700">Parameters and body</summary>
                    {operation.parameters.length > 0 ? (
                      <ul className="mt-2 space-y-1">
                        {operation.parameters.map((p) => (
                          <li key={`${p.in}:${p.name}`} className="font-mono text-xs">
                            {p.in} <strong>{p.name}</strong>
                            {p.required ? " (required)" : ""}: {JSON.stringify(p.schema)}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                    {operation.requestBody
                      ? Object.entries(operation.requestBody.content).map(([type, { schema }]) => (
                          <div key={type} className="mt-2">
                            <p className="text-xs text-slate-500">{type}</p>
                            <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-50 p-2 text-xs">{JSON.stringify(schema, null, 2)}</pre>
                          </div>
                        ))
                      : null}
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
      ))}
    </div>
  );
}
