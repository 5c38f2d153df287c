import { createContext, Suspense, useContext, type ComponentType, type ReactNode } from 'react';

/**
 * Sections one feature adds to another feature's record pages (the ledger's investments on an
 * organization's or a person's page). A record page leaves a slot (`RecordSections`); app/
 * says what fills it (`RecordSectionsProvider`), so neither feature imports the other.
 */

/** A section below a record's own fields; given the id of the record the page shows. */
export type RecordSection = ComponentType<{ id: string }>;

/** The extra sections of each resource kind's record page, in the order shown. */
export type RecordSectionsByKind = Readonly<Partial<Record<string, readonly RecordSection[]>>>;

const RecordSectionsContext = createContext<RecordSectionsByKind>({});

export function RecordSectionsProvider({ sections, children }: { sections: RecordSectionsByKind; children: ReactNode }) {
  return <RecordSectionsContext value={sections}>{children}</RecordSectionsContext>;
}

/**
 * The slot of a record page: every section given for its kind. A section whose code is loaded
 * lazily renders nothing (Suspense fallback null) until its code arrives, then shows its own
 * loading state while its data loads — no empty frame flashes on pages without such sections.
 */
export function RecordSections({ kind, id }: { kind: string; id: string }) {
  const sections = useContext(RecordSectionsContext)[kind] ?? [];
  return (
    <Suspense fallback={null}>
      {sections.map((Section, index) => (
        <Section key={index} id={id} />
      ))}
    </Suspense>
  );
}
