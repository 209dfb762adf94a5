/** The public surface of src/net: the guarded HTTP client, robots.txt and their helpers. */
export type { FetchedResponse, FetchOptions, HttpClient, ResponseHead } from './fetch-types.js';
export { GuardedFetcher, DEFAULT_ACCEPT, type FetchConfig, type GuardedFetcherDeps } from './guarded-fetcher.js';
export {
  classifyAddress,
  describeAddress,
  isForbiddenAddress,
  type AddressClass,
  type AddressPolicy,
} from './address-policy.js';
export { systemResolver, type ResolvedAddress, type Resolver } from './connector.js';
export {
  RobotsChecker,
  UNREACHABLE_TTL_MS,
  type RobotsCheckerDeps,
  type RobotsConfig,
  type RobotsVerdict,
} from './robots.js';
export { LruCache, type LruCacheOptions } from '../core/lru-cache.js';
export { HostLimiter, type Release } from './host-limiter.js';
export { FIRST_BYTES_LENGTH } from './body-reader.js';
