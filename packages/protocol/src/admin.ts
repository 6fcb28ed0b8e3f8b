/** Admin REST API (packages/server/openapi.json): the shapes it answers with, shared by the server and the demo's admin page. */

/** Publish flags decoded: what a user sends and what it has muted. */
export interface AdminStreams {
  audio: boolean;
  video: boolean;
  small: boolean;
  aux: boolean;
  audioMuted: boolean;
  videoMuted: boolean;
  auxMuted: boolean;
}

/** An app as its admin sees it. */
export interface AdminAppInfo {
  sdkAppId: number;
  name: string | null;
  billing: 'active' | 'no-package' | 'out-of-credit';
  requirePrivateMapKey: boolean;
  rooms: number;
  users: number;
}

/** A room as the admin API lists it. */
export interface AdminRoom {
  /** The room's key in admin paths: "1234" (integer room id) or "s:name" (string room id). */
  roomKey: string;
  roomId?: number;
  strRoomId?: string;
  users: number;
  anchors: number;
  audience: number;
  /** Published streams: audio + video + aux over all users. */
  streams: number;
  createdAt: string;
}

/** A user as the admin API shows it. */
export interface AdminUser {
  userId: string;
  tinyId: string;
  role: 'anchor' | 'audience';
  /** Publish flag bits (SPEC §3) and what they mean. */
  flag: number;
  streams: AdminStreams;
  /** False while the connection dropped and the session waits to be resumed. */
  connected: boolean;
  joinedAt: string;
  /** Users this user receives from. */
  subscriptions: string[];
}

/** A ban: the user cannot join the room until `until`. */
export interface AdminBan {
  roomKey: string;
  userId: string;
  until: string;
  reason: string;
  createdAt: string;
}

/** A stored log upload. */
export interface AdminLog {
  id: number;
  roomKey: string | null;
  userId: string;
  cmdType: string;
  version: string;
  clientTime: string | null;
  receivedAt: string;
  log: string;
}
