import { Fragment, useMemo, type ReactNode } from 'react';
import Link from '@mui/material/Link';
import { parseInline, type InlineNode } from '../lib/markdown';

function render(nodes: InlineNode[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={index}>{node.text}</Fragment>;
      case 'strong':
        return <strong key={index}>{render(node.children)}</strong>;
      case 'em':
        return <em key={index}>{render(node.children)}</em>;
      case 'link':
        return (
          <Link key={index} href={node.href} target="_blank" rel="noopener noreferrer nofollow" underline="always">
            {render(node.children)}
          </Link>
        );
    }
  });
}

/**
 * Text in the light Markdown the engine's `markdown` fields take (bold, italic, safe links) as
 * React elements — never inserted as HTML: a fact's text, a note's body.
 */
export function MarkdownText({ text }: { text: string }) {
  const nodes = useMemo(() => parseInline(text), [text]);
  return <>{render(nodes)}</>;
}
