/**
 * Admin REST API (packages/server/openapi.json): the shapes it answers with, shared by the server and the demo's
 * admin page. Inferred from the schemas in http/admin.ts.
 */
import type { z } from 'zod';
import type { adminAppInfo, adminBan, adminLog, adminRobot, adminRoom, adminStreams, adminUser } from './http/admin.js';

/** Publish flags decoded: what a user sends and what it has muted. */
export type AdminStreams = z.infer<typeof adminStreams>;
/** An app as its admin sees it. */
export type AdminAppInfo = z.infer<typeof adminAppInfo>;
/** A room as the admin API lists it. */
export type AdminRoom = z.infer<typeof adminRoom>;
/** A server-side robot of a room as the admin API shows it. */
export type AdminRobot = z.infer<typeof adminRobot>;
/** A user as the admin API shows it. */
export type AdminUser = z.infer<typeof adminUser>;
/** A ban: the user cannot join the room until `until`. */
export type AdminBan = z.infer<typeof adminBan>;
/** A stored log upload. */
export type AdminLog = z.infer<typeof adminLog>;
