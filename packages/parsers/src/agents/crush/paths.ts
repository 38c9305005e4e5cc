/**
 * Crush's files (charmbracelet/crush internal/config/load.go, projects/projects.go, db/connect.go).
 * The session store lives beside the work: `<project>/.crush/crush.db`, collected in project
 * scope (and matched anywhere below a home, for a project inside it); the global files are in the
 * XDG data and config homes on Linux and macOS, `%LOCALAPPDATA%\crush` on Windows.
 */
export const CRUSH_PATHS = {
  /** `.crush/crush.db` at a project root, or anywhere below a home. */
  db: /^(?:.*\/)?\.crush\/crush\.db$/,
  /** The registry of every project Crush ran in. */
  projects: /^(?:\.local\/share\/crush|AppData\/Local\/crush)\/projects\.json$/,
  /** Global config, the data-home overrides (`recent_models`), and a project's config files. */
  config: /^(?:\.config\/crush\/crush\.json|\.local\/share\/crush\/crush\.json|AppData\/Local\/crush\/crush\.json|crush\.json|\.crush\.json|\.crush\/crush\.json)$/,
};
