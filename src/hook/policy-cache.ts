// the validated-policy cache lives with the policy (issue 42 item 1); kept here for the hook's imports
export { loadPolicyCached, type PolicyCacheOptions, policyCacheFormat } from '../policy/policy-cache.ts';
