export const DB = Symbol('DB');
export const REDIS = Symbol('REDIS');
export const PROJECTOR = Symbol('PROJECTOR');
export const RUNTIME_OPTIONS = Symbol('RUNTIME_OPTIONS');
export { EVENT_STORE } from '@quire/event-store/event-store.port';
export { QUIRE_CONFIG } from '@quire/platform/config/config';
export { LOGGER } from '@quire/platform/logging/logger';
