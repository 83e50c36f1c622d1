/** The `_meta` key (and `error.data` key) under which the gate's decision travels to the host. */
export const decisionMetaKey = 'io.linkgate/decision';
