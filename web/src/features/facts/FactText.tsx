/** A fact's text with its light formatting: the shared renderer (components/MarkdownText.tsx). */
export { MarkdownText as FactText } from '../../components/MarkdownText';
