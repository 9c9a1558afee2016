"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { callApi } from "@/lib/client/api";
import { showServerIssues } from "@/lib/client/form-issues";
import { userCreateSchema, type UserCreateInput } from "@/lib/validations/user";

type Role = "ADMIN" | "RESEARCHER" | "ANNOTATOR";
interface UserRow {
  id: string;
  name: string;
  email: string | null;
  role: Role;
  disabled: boolean;
  externalId: string | null;
  createdAt: string;
}

const inputClass = "h-9 w-full rounded-md border border-slate-300 px-3 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100";

export function UsersTable({ initialUsers, currentUserId }: { initialUsers: UserRow[]; currentUserId: string }) {
  const [users, setUsers] = useState(initialUsers);
  const [error, setError] = useState<string>();
  const {
    register,
    handleSubmit,
    reset,
    setError: setFieldError,
    formState: { errors: formErrors, isSubmitting: pending },
  } = useForm<z.input<typeof userCreateSchema>, unknown, UserCreateInput>({
    resolver: zodResolver(userCreateSchema),
    defaultValues: { name: "", email: "", password: "", role: "ANNOTATOR" },
  });

  async function update(id: string, change: Partial<Pick<UserRow, "role" | "disabled">>) {
    setError(undefined);
    const result = await callApi<Partial<UserRow>>(`/api/admin/users/${id}`, { method: "PATCH", json: change });
    if (!result.ok) return setError(result.error ?? "Could not change the user");
    setUsers((list) => list.map((u) => (u.id === id ? { ...u, ...result.data } : u)));
  }

  // the shared schema checks the form before it is sent; the server's issues (an email in use) land on their fields too
  async function create(values: UserCreateInput) {
    const result = await callApi<UserRow>("/api/admin/users", { json: values });
    if (!result.ok) {
      showServerIssues(setFieldError, result, "Could not create the user");
      return;
    }
    setUsers((list) => [...list, result.data]);
    reset();
  }

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Card>
        <CardHeader title={`${users.length} users`} />
        {error ? (
          <p role="alert" className="mx-5 mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <Table>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Email or participant id</Th>
              <Th>Role</Th>
              <Th>Status</Th>
              <Th />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users.map((user) => (
              <tr key={user.id} className={user.disabled ? "bg-slate-50 text-slate-400" : ""}>
                <Td className="font-medium">{user.name}</Td>
                <Td>{user.email ?? <span className="font-mono text-xs">{user.externalId}</span>}</Td>
                <Td>
                  <select
                    aria-label={`Role of ${user.name}`}
                    value={user.role}
                    disabled={user.id === currentUserId}
                    onChange={(e) => update(user.id, { role: e.target.value as Role })}
                    className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm"
                  >
                    <option value="ADMIN">Admin</option>
                    <option value="RESEARCHER">Researcher</option>
                    <option value="ANNOTATOR">Annotator</option>
                  </select>
                </Td>
                <Td>{user.disabled ? <Badge tone="red">disabled</Badge> : <Badge tone="green">active</Badge>}</Td>
                <Td align="right">
                  {user.id === currentUserId ? (
                    <span className="text-xs text-slate-400">you</span>
                  ) : (
                    <Button size="sm" variant={user.disabled ? "secondary" : "ghost"} onClick={() => update(user.id, { disabled: !user.disabled })}>
                      {user.disabled ? "Enable" : "Disable"}
                    </Button>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Card>
      <Card className="h-fit">
        <CardHeader title="New user" />
        <CardBody>
          <form onSubmit={handleSubmit(create)} className="space-y-3 text-sm">
            {(["name", "email", "password"] as const).map((field) => (
              <label key={field} className="block">
                <span className="mb-1 block font-medium capitalize text-slate-700">{field}</span>
                <input
                  {...register(field)}
                  type={field === "password" ? "password" : field === "email" ? "email" : "text"}
                  required
                  className={inputClass}
                  autoComplete="off"
                />
                {formErrors[field] ? <span className="mt-1 block text-xs text-red-600">{formErrors[field].message}</span> : null}
              </label>
            ))}
            <label className="block">
              <span className="mb-1 block font-medium text-slate-700">Role</span>
              <select {...register("role")} className={inputClass}>
                <option value="ANNOTATOR">Annotator</option>
                <option value="RESEARCHER">Researcher</option>
                <option value="ADMIN">Admin</option>
              </select>
            </label>
            {formErrors.root ? <p className="rounded-md bg-red-50 px-3 py-2 text-xs text-red-700">{formErrors.root.message}</p> : null}
            <Button type="submit" className="w-full" disabled={pending}>
              {pending ? "Creating…" : "Create user"}
            </Button>
          </form>
        </CardBody>
      </Card>
    </div>
  );
}
