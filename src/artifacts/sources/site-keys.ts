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
