// The edge's parts another front can reuse (`byhand bridge --listen`) without loading a toolbox or the SDK.

export { createStateCodec, type StateCodec } from './state-codec.js';
export { defaultStateKey, stateKeyBytes, DEFAULT_STATE_TTL_SECONDS, type StateKeySource } from './state.js';
export { acceptedHosts, hostRefusal, LOOPBACK_HOSTS } from './host-check.js';
