import { Fragment, useMemo, type ReactNode } from 'react';
import Link from '@mui/material/Link';
import { parseInline, type InlineNode } from './markdown';

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

/** A fact's text with its light formatting (bold, italic, safe links) as React elements: never HTML. */
export function FactText({ text }: { text: string }) {
  const nodes = useMemo(() => parseInline(text), [text]);
  return <>{render(nodes)}</>;
}
