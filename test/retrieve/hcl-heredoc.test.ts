import { describe, expect, it } from 'vitest';
import { extractPlaceTerms } from '../../src/retrieve/extract.js';
import { terms } from '../../src/retrieve/text.js';

/** A Terraform file with a JSON policy and a shell script in heredocs, and one short heredoc. */
const TF = `resource "aws_iam_policy" "deployer" {
  name   = "deployer"
  policy = <<EOF
{
  "Version": "2012-10-17",
  "Statement": [
    { "Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject", "kinesis:PutRecords"], "Resource": "arn:aws:s3:::artifact-bucket/*" },
    { "Effect": "Deny", "Action": ["s3:DeleteBucket"], "Resource": "*" }
  ]
}
EOF
}

resource "aws_instance" "bastion" {
  user_data = <<-EOT
    #!/bin/bash
    # install the monitoring agent
    yum install -y cloudwatch-agent
    systemctl enable amazon-ssm-agent
    EOT
  tags = { Role = "bastion" }
  description = <<DESC
Jump host
DESC
}
`;

const has = (words: string[], word: string) => terms(word).every((t) => words.includes(t));

describe('HCL heredocs are text, not code', () => {
  it("a heredoc's body is read as a string literal: no identifiers, no comments; a short one gives string words", () => {
    const t = extractPlaceTerms(TF, 'infra/iam.tf');
    // the code around the heredocs is code
    expect(has(t.identifiers, 'resource')).toBe(true);
    expect(has(t.identifiers, 'user_data')).toBe(true);
    expect(has(t.strings, 'bastion')).toBe(true);
    // the JSON policy (long: dropped, as a long string literal is) gives no words at all
    for (const w of ['Statement', 'Effect', 'PutObject', 'kinesis', 'DeleteBucket']) {
      expect(has(t.identifiers, w), w).toBe(false);
      expect(has(t.strings, w), w).toBe(false);
    }
    // the shell script (short) gives string words: no identifiers, and its `#` lines are no comments
    for (const w of ['systemctl', 'cloudwatch', 'yum']) {
      expect(has(t.identifiers, w), w).toBe(false);
      expect(has(t.strings, w), w).toBe(true);
    }
    expect(has(t.comments, 'monitoring')).toBe(false);
    // the heredocs' tags are no words either
    expect(has(t.identifiers, 'EOT')).toBe(false);
    // a short heredoc is a short string: its words are string words
    expect(has(t.strings, 'jump')).toBe(true);
    expect(has(t.identifiers, 'jump')).toBe(false);
  });

  it('other files keep their text as it was: a shell heredoc is not an HCL one', () => {
    const sh = 'cat <<EOF\nkinesis stream\nEOF\n';
    expect(has(extractPlaceTerms(sh, 'deploy.sh').identifiers, 'kinesis')).toBe(true);
    // an unterminated heredoc in HCL is left as code (nothing closes it)
    expect(has(extractPlaceTerms('x = <<EOF\nkinesis\n', 'a.tf').identifiers, 'kinesis')).toBe(true);
  });
});
