import { LIMITS } from '@conclave/protocol';
import { CloudApiError, invalid, missing } from './cloud-api-error.js';

/** A request's parameters (the JSON body's top-level fields, named as the API's models name them). */
export type Params = Readonly<Record<string, unknown>>;

/** The most user ids one RemoveUser call names (the API's limit). */
export const MAX_USER_IDS = 10;

/** A required integer parameter within [min, max]. */
export function integer(params: Params, name: string, min: number, max: number): number {
  const value = params[name];
  if (value === undefined || value === null) throw missing(name);
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(name, 'must be an integer');
  if (value < min || value > max) throw invalid(name, `must be between ${min} and ${max}`);
  return value;
}

/** SdkAppId, which must be the app the SecretId belongs to. */
export function sdkAppId(params: Params, app: number): number {
  const value = integer(params, 'SdkAppId', 1, 0xffffffff);
  if (value !== app) throw new CloudApiError('AuthFailure.UnauthorizedOperation', `this SecretId is not allowed to act on SdkAppId ${value}`);
  return value;
}

/** An integer RoomId (DismissRoom, RemoveUser, …). */
export function intRoomId(params: Params): string {
  return String(integer(params, 'RoomId', LIMITS.MIN_ROOM_ID, LIMITS.MAX_ROOM_ID));
}

/** A string room id (the …ByStrRoomId actions): `RoomId`, or `StrRoomId` for the mix transcode ones. */
export function strRoomId(params: Params, name = 'RoomId'): string {
  const value = params[name];
  if (value === undefined || value === null || value === '') throw missing(name);
  if (typeof value !== 'string') throw invalid(name, 'must be a string');
  if (value.length > LIMITS.MAX_STR_ROOM_ID_LENGTH) throw invalid(name, `must be at most ${LIMITS.MAX_STR_ROOM_ID_LENGTH} characters`);
  return value;
}

/** UserIds: 1 to 10 distinct non-empty strings. */
export function userIds(params: Params): string[] {
  const value = params.UserIds;
  if (value === undefined || value === null) throw missing('UserIds');
  if (!Array.isArray(value) || value.length === 0 || !value.every((id): id is string => typeof id === 'string' && id.length > 0)) {
    throw invalid('UserIds', 'must be a non-empty array of user ids');
  }
  if (value.length > MAX_USER_IDS) throw new CloudApiError('InvalidParameter.UserIdsMorethanTen', `at most ${MAX_USER_IDS} user ids per call`);
  return [...new Set(value)];
}

/** A required non-empty string parameter of at most `max` characters. */
export function text(params: Params, name: string, max = 256): string {
  const value = params[name];
  if (value === undefined || value === null || value === '') throw missing(name);
  if (typeof value !== 'string') throw invalid(name, 'must be a string');
  if (value.length > max) throw invalid(name, `must be at most ${max} characters`);
  return value;
}

/** A required object parameter (a nested model such as RecordParams). */
export function model(params: Params, name: string): Params {
  const value = params[name];
  if (value === undefined || value === null) throw missing(name);
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(name, 'must be an object');
  return value as Params;
}

/** An optional integer parameter that must be one of `allowed`; `fallback` when absent. */
export function oneOf(params: Params, name: string, allowed: readonly number[], fallback: number): number {
  const value = params[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !allowed.includes(value)) throw invalid(name, `must be one of ${allowed.join(', ')}`);
  return value;
}
