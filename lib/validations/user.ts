import { z } from "zod";

export const roleSchema = z.enum(["ADMIN", "RESEARCHER", "ANNOTATOR"]);

export const userCreateSchema = z.object({
  name: z.string().trim().min(1, "a name is needed").max(120),
  email: z.string().trim().toLowerCase().email("not an email address"),
  password: z.string().min(8, "at least 8 characters").max(200),
  role: roleSchema,
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z
  .object({ role: roleSchema.optional(), disabled: z.boolean().optional(), name: z.string().trim().min(1).max(120).optional() })
  .refine((value) => Object.keys(value).length > 0, "nothing to change");
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

export const idParamSchema = z.object({ id: z.string().min(1).max(64) });
