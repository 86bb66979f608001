import { describeOddInput, isOrgOperation } from '../support/odd-input';

// Half of test/support/odd-input.ts's requests; odd-input-orgs.e2e-spec.ts sends the rest.
describeOddInput({ title: 'every GitBook operation outside /orgs and the published site', operations: (template) => !isOrgOperation(template), site: true });
