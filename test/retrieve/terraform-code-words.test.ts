import { describe, expect, it } from 'vitest';
import { openSnapshot } from '../../src/snapshot/open.js';
import { codeWordsOf, isCodePath } from '../../src/retrieve/code-words.js';
import { makeRepo } from '../helpers/git-repo.js';

// HCL is code (init and the code index read it); a place query weighs a Terraform word by how
// many of the repository's .tf files use it, so "resource" and "terraform" say little and a
// bucket's name much, as a Go or Python repository's words do.
describe('Terraform files count as code for the words of a place', () => {
  it('reads .tf, .tfvars and .hcl files into the code words; a lock file stays out', async () => {
    expect(isCodePath('infra/modules/vpc/main.tf')).toBe(true);
    expect(isCodePath('infra/prod.tfvars')).toBe(true);
    expect(isCodePath('terragrunt.hcl')).toBe(true);
    // Terraform's dependency lock file is written by `terraform init`, not by the team (a lockfile, DEC-101)
    expect(isCodePath('infra/.terraform.lock.hcl')).toBe(false);
    const files: Record<string, string> = {};
    for (let i = 0; i < 24; i++) files[`infra/stack${i}/main.tf`] = `resource "aws_s3_bucket" "b${i}" {\n  bucket = "logs-${i}"\n}\n`;
    files['infra/.terraform.lock.hcl'] = 'provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.0.0"\n}\n';
    files['infra/stack0/replication.tf'] = 'resource "aws_s3_bucket_replication_configuration" "assets" {\n  role = aws_iam_role.replicator.arn\n}\n';
    const repo = makeRepo(files);
    repo.commit('terraform');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const cw = await codeWordsOf(snapshot);
      expect(cw?.files).toBe(25);
      // "resource" is in every file; "replicator" in one (words in one file only are not kept)
      expect(cw?.df['resourc']).toBe(25);
      expect(cw?.df['replic']).toBeUndefined();
    } finally {
      snapshot.close();
    }
  });
});
