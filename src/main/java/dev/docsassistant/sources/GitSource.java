package dev.docsassistant.sources;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import dev.docsassistant.config.DocsSource;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.TransportConfigCallback;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.api.errors.InvalidRemoteException;
import org.eclipse.jgit.errors.NoRemoteRepositoryException;
import org.eclipse.jgit.errors.TooLargeObjectInPackException;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.errors.UnsupportedCredentialItem;
import org.eclipse.jgit.transport.CredentialItem;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.PackParser;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.TransportHttp;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A domain's docs in a Git repository, fetched with JGit (over HTTPS, or over SSH with {@link KeyFileSsh}) into a bare
 * repository of its own under the sources folder.
 * A sync first asks the server where the ref points (one round trip): an unchanged ref costs nothing more. A moved
 * one is fetched shallow (depth 1, that ref only, no tags), then the commit's {@code path} is written out as regular
 * files into a new snapshot folder: symbolic links and submodules are left out, so nothing read while indexing can
 * point outside the snapshot, and a path that would leave it is refused. The fetch is cancelled once the repository
 * outgrows its cap or inflates past its budget ({@link InflateBudget}); the file count and each file's size are checked
 * before a byte of it is written.
 */
final class GitSource {

    private static final Logger LOG = LoggerFactory.getLogger(GitSource.class);
    private static final String SERVED = "refs/docs-assistant/served";

    private GitSource() {
    }

    /** The docs at the ref's commit, or null if the ref still points at {@code previousRevision}. */
    static Snapshot sync(String domain, DocsSource source, Path home, SourceLimits limits, SyncDeadline deadline,
            String previousRevision) throws IOException {
        URIish remote = remote(source);
        PrivateAddresses.check(remote.getHost(), limits.allowPrivate());
        CredentialsProvider credentials = credentials(source.credentials(), remote);
        TransportConfigCallback connections = KeyFileSsh.forSource(source, deadline, limits.allowPrivate());
        if (connections == null) {
            OwnHostHttp http = new OwnHostHttp(remote, limits.allowPrivate(), deadline);
            connections = transport -> ((TransportHttp) transport).setHttpConnectionFactory(http);
        }
        int timeout = (int) Math.max(1, limits.timeout().toSeconds());
        String ref = source.refOrDefault();
        String remoteRef;
        ObjectId remoteId;
        try {
            Collection<Ref> refs = Git.lsRemoteRepository().setRemote(source.git()).setHeads(true).setTags(true)
                    .setCredentialsProvider(credentials).setTransportConfigCallback(connections).setTimeout(timeout).call();
            Ref found = refs.stream().filter(r -> r.getName().equals(Constants.R_HEADS + ref)).findFirst()
                    .or(() -> refs.stream().filter(r -> r.getName().equals(Constants.R_TAGS + ref)).findFirst())
                    .orElseThrow(() -> new SyncException("ref '" + ref + "' not found in " + source));
            remoteRef = found.getName();
            remoteId = found.getObjectId();
        } catch (GitAPIException e) {
            throw failure(source, e);
        }
        if (remoteId.name().equals(previousRevision)) {
            return null;
        }
        Path gitDir = home.resolve("git");
        InflateBudget budget = new InflateBudget(limits.maxInflatedBytes(), limits.maxDeltaBytes());
        try (Repository repository = open(gitDir, limits.maxFileBytes(), budget)) {
            RepositorySize size = new RepositorySize(gitDir, limits.maxRepositoryBytes(), deadline, budget);
            try (Git git = Git.wrap(repository)) {
                git.fetch().setRemote(source.git()).setRefSpecs(new RefSpec("+" + remoteRef + ":" + SERVED))
                        .setDepth(1).setTagOpt(TagOpt.NO_TAGS).setCredentialsProvider(credentials)
                        .setTransportConfigCallback(connections).setTimeout(timeout).setProgressMonitor(size).call();
            } catch (GitAPIException | RuntimeException e) {
                deadline.check();
                if (size.exceeded()) {
                    deleteTree(gitDir); // a hostile repository keeps no disk
                    throw new SyncException("repository " + source + " is larger than "
                            + limits.maxRepositoryBytes() + " bytes (assistant.sources.max-repository-bytes)");
                }
                if (budget.exceeded() != null) {
                    throw new SyncException("sync failed (" + source + "): " + budget.exceeded());
                }
                if (tooLarge(e)) {
                    throw new SyncException("sync failed (" + source + "): an object of the repository is larger than "
                            + limits.maxFileBytes() + " bytes (assistant.sources.max-file-bytes)");
                }
                throw failure(source, e);
            }
            if (size.measure() > limits.maxRepositoryBytes()) {
                deleteTree(gitDir);
                throw new SyncException("repository " + source + " is larger than " + limits.maxRepositoryBytes()
                        + " bytes (assistant.sources.max-repository-bytes)");
            }
            return extract(domain, source, repository, home, limits);
        }
    }

    private static Repository open(Path gitDir, long maxObjectBytes, InflateBudget budget) throws IOException {
        Repository repository = new ObjectSizeBounded(new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setup(),
                maxObjectBytes, budget);
        if (!Files.isDirectory(gitDir.resolve("objects"))) {
            repository.create(true);
        }
        return repository;
    }

    /**
     * A repository whose fetches refuse an object that inflates past {@code maxObjectBytes}, a delta's result
     * included, from its header, before a byte of it is inflated, and hand their parser to the fetch's
     * {@link InflateBudget}: JGit's fetch sets no limit of its own
     * ({@code transfer.maxObjectSizeLimit} applies to pushes it receives only), and a 9 KB delta of a 200 KB pack
     * inflated 400 MiB into the heap. JGit's public API has no other way to this limit: the fetch takes its pack
     * parser from the repository's object inserter, and an object checker ({@link InflateBudget}) sees an object only
     * once it is built, so this extends JGit's file repository (an internal class).
     */
    private static final class ObjectSizeBounded extends FileRepository {

        private final long maxObjectBytes;
        private final InflateBudget budget;

        ObjectSizeBounded(FileRepositoryBuilder options, long maxObjectBytes, InflateBudget budget)
                throws IOException {
            super(options);
            this.maxObjectBytes = maxObjectBytes;
            this.budget = budget;
        }

        @Override
        public ObjectInserter newObjectInserter() {
            ObjectInserter inserter = super.newObjectInserter();
            return new ObjectInserter.Filter() {
                @Override
                protected ObjectInserter delegate() {
                    return inserter;
                }

                @Override
                public PackParser newPackParser(InputStream in) throws IOException {
                    PackParser parser = super.newPackParser(in);
                    parser.setMaxObjectSizeLimit(maxObjectBytes);
                    budget.parsing(parser);
                    return parser;
                }
            };
        }
    }

    private static boolean tooLarge(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof TooLargeObjectInPackException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Writes the served commit's {@code path} out as a new snapshot folder, and removes the older ones. The previous
     * snapshot, if its commit is still in the repository, becomes the new one by writing only the files that differ
     * and deleting those gone: a commit that edits one page writes one file, not the whole checkout. Should patching
     * fail short of a limit (a file turned into a folder), the commit is written out whole.
     */
    private static Snapshot extract(String domain, DocsSource source, Repository repository, Path home,
            SourceLimits limits) throws IOException {
        ObjectId served = repository.resolve(SERVED + "^{commit}");
        if (served == null) {
            throw new SyncException("ref '" + source.refOrDefault() + "' of " + source + " is not a commit");
        }
        Path snapshot = home.resolve("snapshot-" + served.name());
        Path partial = home.resolve("partial-" + served.name());
        deleteTree(partial);
        Written written;
        RevCommit previous = previousSnapshot(repository, home, snapshot, partial);
        try {
            written = writeOut(source, repository, served, previous, partial, limits);
        } catch (SyncException e) {
            deleteTree(partial);
            throw e;
        } catch (IOException e) {
            deleteTree(partial);
            if (previous == null) {
                throw e;
            }
            LOG.warn("Cannot patch the docs of domain '{}' into {}, writing them out whole: {}", domain, snapshot,
                    e.toString());
            try {
                written = writeOut(source, repository, served, null, partial, limits);
            } catch (IOException whole) {
                deleteTree(partial);
                throw whole;
            }
        }
        if (!Files.isRegularFile(partial.resolve("docs.json")) && !Files.isRegularFile(partial.resolve("mint.json"))) {
            deleteTree(partial);
            throw new SyncException(source + " has no docs.json (or mint.json) in '" + source.pathOrRoot() + "' at "
                    + served.name());
        }
        deleteTree(snapshot);
        Files.move(partial, snapshot);
        try (Stream<Path> others = Files.list(home)) {
            for (Path other : (Iterable<Path>) others::iterator) {
                if (other.getFileName().toString().startsWith("snapshot-") && !other.equals(snapshot)) {
                    deleteTree(other);
                }
            }
        }
        LOG.info("Fetched docs of domain '{}' from {} at {}: {} files ({} written){}", domain, source, served.name(),
                written.files(), written.written(), written.skipped() == 0 ? ""
                        : ", " + written.skipped() + " links, submodules or unsafe paths left out");
        return new Snapshot(snapshot, served.name());
    }

    /**
     * The commit of the domain's current snapshot, its folder moved to {@code partial} to be patched; null (nothing
     * moved) when there is none, it is the one to write, or its commit is no longer in the repository.
     */
    private static RevCommit previousSnapshot(Repository repository, Path home, Path snapshot, Path partial)
            throws IOException {
        try (Stream<Path> folders = Files.list(home)) {
            Path previous = folders.filter(folder -> folder.getFileName().toString().startsWith("snapshot-")
                    && !folder.equals(snapshot)).findFirst().orElse(null);
            if (previous == null || !ObjectId.isId(previous.getFileName().toString().substring(9))) {
                return null;
            }
            RevCommit commit;
            try (RevWalk walk = new RevWalk(repository)) {
                commit = walk.parseCommit(ObjectId.fromString(previous.getFileName().toString().substring(9)));
            } catch (IOException e) {
                return null; // its objects are gone: write the new commit out whole
            }
            Files.move(previous, partial);
            return commit;
        }
    }

    /** Files the commit's {@code path} holds, files written for it, and entries left out. */
    private record Written(int files, int written, int skipped) {
    }

    /**
     * Brings {@code partial} to the commit's {@code path}: from nothing, or (with {@code previous}) from the previous
     * commit's files, writing only the files whose content differs and deleting those the commit no longer has.
     */
    private static Written writeOut(DocsSource source, Repository repository, ObjectId served, RevCommit previous,
            Path partial, SourceLimits limits) throws IOException {
        Files.createDirectories(partial);
        String prefix = source.pathOrRoot();
        int files = 0;
        int written = 0;
        int skipped = 0;
        try (RevWalk walk = new RevWalk(repository); ObjectReader reader = repository.newObjectReader();
                TreeWalk tree = new TreeWalk(reader)) {
            tree.addTree(walk.parseCommit(served).getTree());
            if (previous != null) {
                tree.addTree(previous.getTree());
            }
            tree.setRecursive(true);
            if (!prefix.isEmpty()) {
                tree.setFilter(PathFilter.create(prefix));
            }
            while (tree.next()) {
                String relative = prefix.isEmpty() ? tree.getPathString()
                        : tree.getPathString().substring(Math.min(prefix.length() + 1, tree.getPathString().length()));
                Path target = partial.resolve(relative).normalize();
                boolean safe = !relative.isEmpty() && target.startsWith(partial) && !relative.contains("\\");
                FileMode mode = tree.getFileMode(0);
                if (mode != FileMode.REGULAR_FILE && mode != FileMode.EXECUTABLE_FILE || !safe) {
                    if (mode != FileMode.MISSING) {
                        skipped++; // symbolic links, submodules and unsafe paths: never followed
                    }
                    if (previous != null && safe) {
                        Files.deleteIfExists(target); // gone from the commit, or no longer a regular file
                    }
                    continue;
                }
                if (++files > limits.maxFiles()) {
                    throw new SyncException(source + " has more than " + limits.maxFiles()
                            + " files (assistant.sources.max-files)");
                }
                ObjectId blob = tree.getObjectId(0);
                long bytes = reader.getObjectSize(blob, Constants.OBJ_BLOB);
                if (bytes > limits.maxFileBytes()) {
                    throw new SyncException(source + ": " + tree.getPathString() + " is larger than "
                            + limits.maxFileBytes() + " bytes (assistant.sources.max-file-bytes)");
                }
                FileMode before = previous == null ? FileMode.MISSING : tree.getFileMode(1);
                if ((before == FileMode.REGULAR_FILE || before == FileMode.EXECUTABLE_FILE) && tree.idEqual(0, 1)
                        && Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
                    continue; // in the previous snapshot as the commit has it
                }
                Files.createDirectories(target.getParent());
                try (OutputStream out = Files.newOutputStream(target)) {
                    reader.open(blob, Constants.OBJ_BLOB).copyTo(out);
                }
                written++;
            }
        }
        return new Written(files, written, skipped);
    }

    private static URIish remote(DocsSource source) throws SyncException {
        try {
            return new URIish(source.git());
        } catch (java.net.URISyntaxException e) {
            throw new SyncException("not a Git URL: " + source);
        }
    }

    private static CredentialsProvider credentials(String secretName, URIish remote) throws IOException {
        String secret = SourceSecrets.read(secretName);
        if (secret == null) {
            return null;
        }
        int colon = secret.indexOf(':');
        // a token alone is sent as the password: GitHub, GitLab and Bitbucket take any user name with a token
        return colon < 0 ? new OwnHostOnly("x-access-token", secret, remote)
                : new OwnHostOnly(secret.substring(0, colon), secret.substring(colon + 1), remote);
    }

    /**
     * The credentials, given only for the configured remote's scheme, host and port: a redirect to another host
     * asks for them and gets none (JGit's own provider answers any URI).
     */
    private static final class OwnHostOnly extends UsernamePasswordCredentialsProvider {

        private final URIish remote;

        OwnHostOnly(String user, String password, URIish remote) {
            super(user, password);
            this.remote = remote;
        }

        @Override
        public boolean get(URIish uri, CredentialItem... items) throws UnsupportedCredentialItem {
            boolean own = uri != null && remote.getHost() != null && remote.getHost().equalsIgnoreCase(uri.getHost())
                    && remote.getPort() == uri.getPort() && Objects.equals(remote.getScheme(), uri.getScheme());
            return own && super.get(uri, items);
        }
    }

    /**
     * What went wrong, in our words: a bound this service set or a refusal of ours as it is, else one of a few kinds,
     * never the remote's text (an answer's first line, its banner) nor anything telling a refused port from a closed
     * one beyond a timeout.
     */
    private static SyncException failure(DocsSource source, Exception e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SyncException own) {
                return new SyncException("sync failed (" + source + "): " + own.getMessage());
            }
        }
        String message = String.valueOf(e.getMessage());
        String reason = message.contains("the host key of") ? message.substring(message.indexOf("the host key of"))
                : e instanceof InvalidRemoteException || e.getCause() instanceof NoRemoteRepositoryException
                ? "repository not found"
                : message.contains("not authorized") || message.contains("Auth fail") ? "authentication failed"
                : message.contains("timed out") || message.contains("Read timed out") ? "timed out"
                : "cannot fetch";
        return new SyncException("sync failed (" + source + "): " + reason);
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(path);
            }
        }
    }

    /**
     * Cancels a fetch once the repository's files outgrow the cap, or the sync is past its deadline or no longer
     * wanted (JGit asks between each chunk it receives); arms the fetch's {@link InflateBudget}.
     */
    private static final class RepositorySize implements ProgressMonitor {

        private final Path gitDir;
        private final long max;
        private final SyncDeadline deadline;
        private final InflateBudget budget;
        private final AtomicLong updates = new AtomicLong();
        private volatile boolean exceeded;

        RepositorySize(Path gitDir, long max, SyncDeadline deadline, InflateBudget budget) {
            this.gitDir = gitDir;
            this.max = max;
            this.deadline = deadline;
            this.budget = budget;
        }

        long measure() {
            try (Stream<Path> files = Files.walk(gitDir)) {
                return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
            } catch (IOException | java.io.UncheckedIOException e) {
                return 0; // a temporary pack renamed while listed: measured again at the next update
            }
        }

        boolean exceeded() {
            return exceeded;
        }

        @Override
        public void update(int completed) {
            if (updates.incrementAndGet() % 64 == 0 && measure() > max) {
                exceeded = true;
            }
        }

        @Override
        public boolean isCancelled() {
            return exceeded || deadline.over();
        }

        @Override
        public void start(int totalTasks) {
        }

        @Override
        public void beginTask(String title, int totalWork) {
            budget.arm(); // the pack's parser, once made, begins by this, before its first object
            if (measure() > max) {
                exceeded = true;
            }
        }

        @Override
        public void endTask() {
        }

        @Override
        public void showDuration(boolean enabled) {
        }
    }
}
