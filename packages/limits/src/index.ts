export { TtlCache } from './ttl-cache';
export { FixedWindowCounter } from './fixed-window-counter';
export { ProjectSlots } from './project-slots';
