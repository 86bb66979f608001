import { describeOddInput, isOrgOperation } from '../support/odd-input';

// Half of test/support/odd-input.ts's requests; odd-input.e2e-spec.ts sends the rest.
describeOddInput({ title: 'every GitBook operation under /orgs', operations: isOrgOperation, site: false });
