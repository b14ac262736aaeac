/** What caused a revision. */
export type RevisionChange = 'created' | 'updated' | 'published' | 'unpublished' | 'restored';
