import type MarkdownIt from 'markdown-it';

const TASK_MARKER = /^\[([ xX])\](?:[ \t]+|$)/;

export interface TaskListMeta {
  taskList: true;
}

export interface TaskItemMeta {
  checked: boolean;
}

/**
 * markdown-it plugin for GFM task lists. A bullet list becomes a task list only when every
 * item starts with `[ ]` or `[x]`: GitBook's `list-tasks` has no room for plain items, and a
 * partly-ticked list is more likely prose that happens to start with a bracket. The marker is
 * cut from the item's inline source before inline parsing, so it never reaches the text.
 */
export function taskListsPlugin(md: MarkdownIt.MarkdownIt): void {
  md.core.ruler.before('inline', 'task_lists', (state: MarkdownIt.StateCore) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i].type === 'bullet_list_open') markTaskList(tokens, i);
    }
  });
}

function markTaskList(tokens: MarkdownIt.Token[], listIndex: number): void {
  const itemLevel = tokens[listIndex].level + 1;
  const items: Array<{ item: MarkdownIt.Token; inline: MarkdownIt.Token; marker: RegExpExecArray }> = [];
  for (let i = listIndex + 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'bullet_list_close' && token.level === itemLevel - 1) break;
    if (token.type !== 'list_item_open' || token.level !== itemLevel) continue;
    const inline = tokens[i + 2];
    if (tokens[i + 1]?.type !== 'paragraph_open' || inline?.type !== 'inline') return;
    const marker = TASK_MARKER.exec(inline.content);
    if (!marker) return;
    items.push({ item: token, inline, marker });
  }
  if (items.length === 0) return;
  tokens[listIndex].meta = { taskList: true } satisfies TaskListMeta;
  for (const { item, inline, marker } of items) {
    item.meta = { checked: marker[1] !== ' ' } satisfies TaskItemMeta;
    inline.content = inline.content.slice(marker[0].length);
  }
}
