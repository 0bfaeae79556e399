/**
 * The phone menu's groups, one rule for every brand: an item with children is a group — a
 * plain label (never a link) followed by its links, with the item's own page among them (added
 * first when its children do not already link to it); items without children are plain links
 * in an unlabelled group, in their order.
 */
export interface MenuLink {
  label: string;
  href: string;
}
export interface MenuGroup {
  label?: string;
  links: MenuLink[];
}

export function mobileMenuGroups(nav: readonly { label: string; href?: string; children?: readonly MenuLink[] }[]): MenuGroup[] {
  const groups: MenuGroup[] = [];
  for (const item of nav) {
    if (item.children?.length) {
      const own = item.href && !item.children.some((c) => c.href === item.href) ? [{ label: `${item.label}: overview`, href: item.href }] : [];
      groups.push({ label: item.label, links: [...own, ...item.children] });
    } else if (item.href) {
      const last = groups[groups.length - 1];
      if (last && !last.label) last.links.push({ label: item.label, href: item.href });
      else groups.push({ links: [{ label: item.label, href: item.href }] });
    }
  }
  return groups;
}
