/**
 * Redis for the cluster tests: the server's test helper (packages/server/test/support/redis-server.ts), the
 * one Redis starter of every test — RedisServer here is its TestRedis.
 */
export { TestRedis as RedisServer, spawnRedis } from '../../../../packages/server/test/support/redis-server.js';
