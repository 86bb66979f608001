export * from './projection';
export * from './projection-registry';
export * from './projector';
export * from './rebuild';
export * from './command-executor';
export * from './write-batching';
export * from './read-cache';
