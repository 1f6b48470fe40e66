// @spec SPEC-SOURCES-001

/**
 * Frontmatter keys a documentation site's generator reads from a record it publishes (Jekyll's
 * just-the-docs `parent`/`nav_order`, Docusaurus `sidebar_position`, Hugo `weight`, …): where
 * the page sits in the site's menu, nothing about the decision. A records folder that a site
 * also publishes carries them in every record.
 */
export const SITE_KEYS: ReadonlySet<string> = new Set(['layout', 'parent', 'grand_parent', 'nav_order', 'nav_exclude', 'has_children', 'has_toc', 'permalink', 'sidebar_position', 'sidebar_label', 'sidebar_class_name', 'weight', 'menu', 'toc', 'hide', 'search_exclude']);

/** The site keys that order the menu by a number: a new record takes its own number there. */
export const SITE_ORDER_KEYS: ReadonlySet<string> = new Set(['nav_order', 'sidebar_position', 'weight']);

/**
 * Keys a documentation sync writes into each record it copies to a site (gardenlinux: `github_org`,
 * `github_repo`, `github_source_path`, `github_target_path`; Docusaurus `custom_edit_url`): where
 * the page came from, nothing about the decision. Not shown as the record's metadata.
 */
export const isSyncKey = (key: string): boolean => /^(?:github|gitlab|bitbucket)_/.test(key) || key === 'custom_edit_url' || key === 'edit_url';
